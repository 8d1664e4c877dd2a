//! The C program of a workspace folder as its model describes it
//! (`pointee.toml`, `compile_commands.json`, or every `.c` file: see
//! `docs/program-model.md`), in the form the host takes: which `.c` files
//! are units, how each is preprocessed, and the entries the model names.
//! The language server reads it through here, so that it and `pointee
//! check DIR` read one model the same way.
//!
//! It does no I/O: the caller lists the folder and reads what is asked for.

use crate::UnitConfig;
use std::collections::{BTreeMap, BTreeSet};

pub use pointee_project::is_model_file;

/// A workspace folder (its path, as the files' paths start) and its C
/// program model (`None`: it has no model file, or one that cannot be
/// read: every `.c` file under it is a unit).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CFolder {
    pub root: String,
    pub model: Option<CModel>,
}

/// The C program of one or more folders.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CModel {
    /// The `.c` files that are units (normalised paths), when a model file
    /// names them; a `.c` file of the workspace that is not among them is
    /// analysed on its own. `None` (no model file): every `.c` file, also
    /// one opened or created after the folder was read.
    pub units: Option<BTreeSet<String>>,
    /// How each unit is preprocessed.
    pub configs: BTreeMap<String, UnitConfig>,
    /// The functions the analysis starts from, when the model names them.
    pub entries: Option<Vec<String>>,
    /// What the user should know (entries of a database it skipped).
    pub notes: Vec<String>,
}

impl CModel {
    /// The model of the folder `root`, whose files (relative, `/`-separated)
    /// are `listing`; `read` reads a file the model names. `Err` is one
    /// line naming the file (and line) that cannot be understood.
    pub fn read(
        root: &str,
        listing: &[String],
        read: &mut dyn FnMut(&str) -> Result<String, String>,
    ) -> Result<CModel, String> {
        let model = pointee_project::load(root, listing, read).map_err(|e| e.0)?;
        let named = model.origin != pointee_project::Origin::Discovered;
        let mut out = CModel {
            entries: model.entries,
            notes: model.notes,
            units: named.then(BTreeSet::new),
            ..CModel::default()
        };
        for u in model.units {
            let file = pointee_project::paths::normalize(&u.file);
            if let Some(units) = &mut out.units {
                units.insert(file.clone());
            }
            out.configs.insert(file, u.config);
        }
        Ok(out)
    }
}
