//! The files given on the command line that form one program (read by
//! `load.rs`), and the one-shot analysis of them: every file applied to a
//! fresh `pointee_ide::AnalysisHost` as one change.

use pointee_ide::{Analysis, AnalysisHost, Change, Config, InputError, Lang, System, UnitConfig};
use std::collections::BTreeMap;

/// One file as read: its name as given and its text.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        SourceFile {
            name: name.into(),
            text: text.into(),
        }
    }
}

/// The files that form one program.
#[derive(Clone, Default)]
pub struct Workspace {
    pub files: Vec<SourceFile>,
    /// Where C `#include`s not among `files` are read (the disk); `None`:
    /// only the C library model's headers.
    pub system: Option<System>,
    /// How each C translation unit is preprocessed (the program model's),
    /// by file name; a unit not listed gets the default configuration.
    pub configs: BTreeMap<String, UnitConfig>,
}

impl Workspace {
    pub fn new(files: Vec<SourceFile>) -> Workspace {
        Workspace {
            files,
            system: None,
            configs: BTreeMap::new(),
        }
    }

    pub fn file(&self, name: &str) -> Option<&SourceFile> {
        self.files.iter().find(|f| f.name == name)
    }

    /// The language of the program: all files must share one.
    pub fn language(&self) -> Result<Lang, InputError> {
        let mut langs = self.files.iter().filter_map(|f| Lang::of_path(&f.name));
        let Some(first) = langs.next() else {
            return Err(InputError("no C or Java source files given".into()));
        };
        if langs.any(|l| l != first) {
            return Err(InputError(
                "C and Java files cannot form one program".into(),
            ));
        }
        Ok(first)
    }

    /// The program analysed: its language and a snapshot to ask, or why it
    /// cannot be analysed (files that do not link, a Java entry that does
    /// not exist, ...).
    pub fn analyse(&self, config: Config) -> Result<(Lang, Analysis), InputError> {
        let lang = self.language()?;
        let mut host = match &self.system {
            Some(system) => AnalysisHost::with_system(system.clone()),
            None => AnalysisHost::default(),
        };
        let files = self.files.iter().map(|f| (f.name.clone(), f.text.as_str()));
        let mut change = Change::of_files(files, config);
        change.set_unit_configs(self.configs.clone());
        host.apply_change(change);
        let analysis = host.analysis();
        if let Some(e) = now(analysis.program_error(lang)) {
            return Err(e);
        }
        Ok((lang, analysis))
    }
}

/// An answer of a snapshot nothing else writes to: never cancelled.
pub fn now<T>(answer: pointee_ide::Cancellable<T>) -> T {
    answer.expect("a one-shot analysis has no other writer to cancel it")
}
