//! Byte offsets to lines and columns and back: the one place that converts
//! between tree-sitter's bytes, the command line's characters and LSP's UTF-16.

/// Line starts of one text. Lines and columns are 0-based here; the command
/// line adds 1 at the edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    text: std::sync::Arc<str>,
    line_starts: Vec<u32>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        LineIndex {
            text: text.into(),
            line_starts,
        }
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    fn line_text(&self, line: usize) -> &str {
        let start = self.line_starts[line] as usize;
        let end = self
            .line_starts
            .get(line + 1)
            .map(|&e| e as usize)
            .unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }

    /// The 0-based line of a byte offset.
    pub fn line_of(&self, offset: u32) -> usize {
        match self.line_starts.binary_search(&offset) {
            Ok(l) => l,
            Err(l) => l - 1,
        }
    }

    /// (line, column in characters), both 0-based.
    pub fn line_col_chars(&self, offset: u32) -> (usize, usize) {
        self.line_col_by(offset, |_| 1)
    }

    /// (line, column in UTF-16 code units), both 0-based.
    pub fn line_col_utf16(&self, offset: u32) -> (usize, usize) {
        self.line_col_by(offset, char::len_utf16)
    }

    fn line_col_by(&self, offset: u32, width: impl Fn(char) -> usize) -> (usize, usize) {
        let line = self.line_of(offset);
        let start = self.line_starts[line] as usize;
        let end = (offset as usize).min(self.text.len());
        let col = self
            .text
            .get(start..end)
            .map(|s| s.chars().map(&width).sum())
            .unwrap_or(0);
        (line, col)
    }

    /// The byte offset of a 0-based (line, character column); `None` when the
    /// position is outside the text. The column may be the line's length.
    pub fn offset_chars(&self, line: usize, col: usize) -> Option<u32> {
        self.offset_by(line, col, |_| 1)
    }

    /// The byte offset of a 0-based (line, UTF-16 column).
    pub fn offset_utf16(&self, line: usize, col: usize) -> Option<u32> {
        self.offset_by(line, col, char::len_utf16)
    }

    fn offset_by(&self, line: usize, col: usize, width: impl Fn(char) -> usize) -> Option<u32> {
        if line >= self.line_starts.len() {
            return None;
        }
        let text = self.line_text(line);
        let mut units = 0;
        for (byte, ch) in text.char_indices() {
            if units == col {
                return Some(self.line_starts[line] + byte as u32);
            }
            units += width(ch);
            if units > col {
                return None; // inside a surrogate pair
            }
        }
        (units == col).then(|| self.line_starts[line] + text.len() as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_multibyte_columns() {
        let idx = LineIndex::new("ab\né😀x\n");
        let x = "ab\né😀".len() as u32;
        assert_eq!(idx.line_col_chars(x), (1, 2));
        assert_eq!(idx.line_col_utf16(x), (1, 3));
        assert_eq!(idx.offset_chars(1, 2), Some(x));
        assert_eq!(idx.offset_utf16(1, 3), Some(x));
        assert_eq!(idx.offset_utf16(1, 2), None, "inside a surrogate pair");
        assert_eq!(idx.offset_chars(1, 9), None);
        assert_eq!(idx.offset_chars(5, 0), None);
        assert_eq!(idx.offset_chars(2, 0), Some(idx.text.len() as u32));
    }
}
