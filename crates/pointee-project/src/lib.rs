//! pointee-project: the program model of a C workspace. Which files are
//! translation units, and how each is preprocessed (include directories,
//! macros defined and undefined, forced includes, the language standard),
//! plus the entry points the user names. Read from, in this order:
//!
//! 1. `pointee.toml` at the workspace root (keys in `docs/program-model.md`),
//!    which may itself point to a compilation database;
//! 2. `compile_commands.json` at the root (or in `build/`): the standard
//!    compilation database (`directory`, `file`, `arguments` or `command`);
//! 3. neither: every `.c` file under the root is a unit, and include
//!    directories are guessed (the unit's folder, `include/`, the root).
//!
//! It must never do I/O: the caller lists the root's files and reads the
//! few it is asked for. A malformed file is one clear error line naming the
//! file and line; nothing is guessed past it.

mod compdb;
mod flags;
pub mod json;
mod manifest;
pub mod paths;
pub mod toml;

pub use flags::shell_words;

/// The manifest's file name, at the workspace root.
pub const MANIFEST: &str = "pointee.toml";

/// Where a compilation database is looked for, relative to the root.
pub const COMPILE_COMMANDS: [&str; 2] = ["compile_commands.json", "build/compile_commands.json"];

/// Whether a file (relative to the root) is one the model is read from:
/// when it changes, the model must be loaded again.
pub fn is_model_file(relative: &str) -> bool {
    relative == MANIFEST || COMPILE_COMMANDS.contains(&relative)
}

pub use pointee_cpp::{Config, MacroOption, Standard};

/// One translation unit: a `.c` file and how it is preprocessed (paths in
/// the configuration as the model computed them: joined to the root or the
/// database's `directory`, normalised).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Unit {
    pub file: String,
    pub config: Config,
}

/// Where the model came from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// A `pointee.toml` (its path).
    Manifest(String),
    /// A compilation database (its path).
    CompileCommands(String),
    /// Neither: every `.c` file under the root.
    Discovered,
}

/// The program: its units, and the entry points when the user named them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ProgramModel {
    pub origin: Origin,
    /// The workspace root the model's relative paths start from.
    pub root: String,
    /// In a stable order (the database's, the manifest's, or by path); one
    /// per file.
    pub units: Vec<Unit>,
    /// Functions to analyse as entries (names or `*` patterns), from the
    /// manifest's `entries`; `None` leaves the engine's rule (`main`, or
    /// every externally visible function without one).
    pub entries: Option<Vec<String>>,
    /// What the user should know but that does not stop the analysis
    /// (a database entry for a file that is not C, a file listed twice).
    pub notes: Vec<String>,
}

impl ProgramModel {
    pub fn unit(&self, file: &str) -> Option<&Unit> {
        self.units.iter().find(|u| u.file == file)
    }
}

/// A model file that cannot be read or understood: one line, naming the
/// file (and line, where there is one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelError(pub String);

impl std::fmt::Display for ModelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Reads a file the model needs (a path joined to the root): its text, or
/// why it cannot be read.
pub type Read<'a> = dyn FnMut(&str) -> Result<String, String> + 'a;

/// The model of the workspace at `root`, whose files (relative to the root,
/// `/`-separated) are `listing`: from `pointee.toml`, else a compilation
/// database, else every `.c` file.
pub fn load(root: &str, listing: &[String], read: &mut Read) -> Result<ProgramModel, ModelError> {
    if listing.iter().any(|f| f == MANIFEST) {
        let path = paths::join(root, MANIFEST);
        let text = read(&path).map_err(|e| ModelError(format!("{path}: {e}")))?;
        return manifest::read(root, &path, &text, listing, read);
    }
    if let Some(db) = COMPILE_COMMANDS
        .iter()
        .find(|c| listing.iter().any(|f| f == *c))
    {
        let path = paths::join(root, db);
        let text = read(&path).map_err(|e| ModelError(format!("{path}: {e}")))?;
        return from_compile_commands(&path, &text);
    }
    Ok(discover(root, listing))
}

/// The model a compilation database describes: one unit per C file entry.
/// The root is the database's folder.
pub fn from_compile_commands(path: &str, text: &str) -> Result<ProgramModel, ModelError> {
    let (units, notes) = compdb::read(path, text)?;
    Ok(ProgramModel {
        origin: Origin::CompileCommands(path.to_string()),
        root: paths::parent(path).to_string(),
        units,
        entries: None,
        notes,
    })
}

/// The model of a manifest given by path (`pointee check --project FILE
/// DIR`): as if it stood at `root`.
pub fn from_manifest(
    root: &str,
    path: &str,
    text: &str,
    listing: &[String],
    read: &mut Read,
) -> Result<ProgramModel, ModelError> {
    manifest::read(root, path, text, listing, read)
}

/// Every `.c` file of the listing (hidden folders skipped), by path, with
/// guessed include directories.
pub fn discover(root: &str, listing: &[String]) -> ProgramModel {
    let units = c_files(listing)
        .map(|rel| Unit {
            file: paths::join(root, rel),
            config: guessed_config(root, rel, listing),
        })
        .collect();
    ProgramModel {
        origin: Origin::Discovered,
        root: root.to_string(),
        units,
        entries: None,
        notes: Vec::new(),
    }
}

/// The `.c` files of a listing, sorted, outside hidden folders.
pub(crate) fn c_files(listing: &[String]) -> impl Iterator<Item = &str> {
    let mut v: Vec<&str> = listing
        .iter()
        .map(String::as_str)
        .filter(|f| f.ends_with(".c") && !f.split('/').any(|s| s.starts_with('.')))
        .collect();
    v.sort_unstable();
    v.dedup();
    v.into_iter()
}

/// The include directories a unit without flags most likely needs: its own
/// folder, the root's `include/` (when it has one) and the root.
pub(crate) fn guessed_config(root: &str, rel: &str, listing: &[String]) -> Config {
    let mut dirs = vec![paths::join(root, paths::parent(rel))];
    if listing.iter().any(|f| f.starts_with("include/")) {
        dirs.push(paths::join(root, "include"));
    }
    dirs.push(paths::normalize(root));
    let mut seen = std::collections::HashSet::new();
    dirs.retain(|d| seen.insert(d.clone()));
    Config {
        include_dirs: dirs,
        ..Config::default()
    }
}

#[cfg(test)]
mod tests;
