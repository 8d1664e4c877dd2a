//! The program as the user gave it: in-memory source files, and conversions
//! between byte offsets and the 1-based (line, character column) positions of
//! the answers.

use crate::{InputError, Location, Span};
use pointee_ir::{LineIndex, Range};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    C,
    Java,
}

impl Language {
    /// The language of a file, by its extension.
    pub fn of_path(path: &str) -> Option<Language> {
        let ext = path.rsplit_once('.').map(|(_, e)| e)?;
        match ext {
            "c" | "h" => Some(Language::C),
            "java" => Some(Language::Java),
            _ => None,
        }
    }
}

/// One source file: its name as given and its text.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    pub lines: LineIndex,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        let text = text.into();
        let lines = LineIndex::new(&text);
        SourceFile {
            name: name.into(),
            text,
            lines,
        }
    }

    pub fn language(&self) -> Option<Language> {
        Language::of_path(&self.name)
    }

    /// The 1-based location of a byte offset.
    pub fn location(&self, offset: u32) -> Location {
        let (line, col) = self.lines.line_col_chars(offset);
        Location {
            file: self.name.clone(),
            line: line as u32 + 1,
            column: col as u32 + 1,
        }
    }

    pub fn span(&self, range: Range) -> Span {
        let start = self.location(range.start);
        let end = self.location(range.end);
        Span {
            file: self.name.clone(),
            line: start.line,
            column: start.column,
            end_line: end.line,
            end_column: end.column,
        }
    }

    /// The byte offset of a 1-based (line, character column), or a clear error.
    pub fn offset(&self, line: u32, column: u32) -> Result<u32, InputError> {
        if line == 0 || column == 0 {
            return Err(InputError(format!(
                "{}:{line}:{column}: lines and columns start at 1",
                self.name
            )));
        }
        self.lines
            .offset_chars(line as usize - 1, column as usize - 1)
            .ok_or_else(|| {
                InputError(format!(
                    "{}:{line}:{column}: position is outside the file",
                    self.name
                ))
            })
    }

    pub fn text_of(&self, range: Range) -> &str {
        self.text
            .get(range.start as usize..range.end as usize)
            .unwrap_or("")
    }
}

/// The files that form one program.
#[derive(Clone, Debug, Default)]
pub struct Workspace {
    pub files: Vec<SourceFile>,
    /// Where C `#include`s not among `files` are read (the disk, given by
    /// the edge); `None`: only the C library model's headers.
    pub system: Option<System>,
}

/// Files beneath the workspace's own, read through this (C includes).
#[derive(Clone)]
pub struct System(pub std::sync::Arc<dyn pointee_c::FileSystem + Send + Sync>);

impl std::fmt::Debug for System {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("System")
    }
}

impl Workspace {
    pub fn new(files: Vec<SourceFile>) -> Workspace {
        Workspace {
            files,
            system: None,
        }
    }

    pub fn file(&self, name: &str) -> Option<&SourceFile> {
        self.files.iter().find(|f| f.name == name)
    }

    /// The file and byte offset of a 1-based (line, column), or a clear error.
    pub fn position(
        &self,
        file: &str,
        line: u32,
        column: u32,
    ) -> Result<(&SourceFile, u32), InputError> {
        let f = self
            .file(file)
            .ok_or_else(|| InputError(format!("{file}: not one of the program's files")))?;
        Ok((f, f.offset(line, column)?))
    }

    pub fn files_of(&self, lang: Language) -> impl Iterator<Item = &SourceFile> {
        self.files
            .iter()
            .filter(move |f| f.language() == Some(lang))
    }
}
