//! The command line's positions: 1-based lines and columns counted in
//! characters, converted to and from pointee-ide's file ids and byte
//! offsets (through each file's `pointee_ir::LineIndex`).

use crate::workspace::now;
use pointee_ide::{Analysis, FilePosition, FileRange, InputError};

/// A position as the command line shows it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

/// A range as the command line shows it, end-exclusive.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

pub struct Locator<'a> {
    pub analysis: &'a Analysis,
}

impl Locator<'_> {
    fn at(&self, file: pointee_ide::FileId, offset: u32) -> Location {
        let lines = now(self.analysis.line_index(file));
        let (line, col) = lines.line_col_chars(offset);
        Location {
            file: self.analysis.file_path(file).to_string(),
            line: line as u32 + 1,
            column: col as u32 + 1,
        }
    }

    /// Where a range starts.
    pub fn location(&self, r: FileRange) -> Location {
        self.at(r.file, r.range.start)
    }

    pub fn span(&self, r: FileRange) -> Span {
        let start = self.at(r.file, r.range.start);
        let end = self.at(r.file, r.range.end);
        Span {
            file: start.file,
            line: start.line,
            column: start.column,
            end_line: end.line,
            end_column: end.column,
        }
    }

    /// The byte position of a 1-based (line, character column) of `file`,
    /// or a clear error.
    pub fn position(&self, file: &str, line: u32, column: u32) -> Result<FilePosition, InputError> {
        let id = self
            .analysis
            .file_id(file)
            .ok_or_else(|| InputError(format!("{file}: not one of the program's files")))?;
        if line == 0 || column == 0 {
            return Err(InputError(format!(
                "{file}:{line}:{column}: lines and columns start at 1"
            )));
        }
        let lines = now(self.analysis.line_index(id));
        let offset = lines
            .offset_chars(line as usize - 1, column as usize - 1)
            .ok_or_else(|| {
                InputError(format!(
                    "{file}:{line}:{column}: position is outside the file"
                ))
            })?;
        Ok(FilePosition { file: id, offset })
    }
}
