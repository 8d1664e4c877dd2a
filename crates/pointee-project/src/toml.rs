//! The part of TOML that `pointee.toml` uses: `key = value` lines with
//! strings (basic `"..."` and literal `'...'`), booleans, integers and
//! arrays of them (over several lines, with comments and a trailing comma),
//! `[table]` and `[[array of tables]]` headers, and `#` comments. Anything
//! else of TOML (inline tables, dotted keys, multi-line strings, dates) is
//! refused with the line it is on, never misread. Never reads files.

/// A value, with the line its key was on.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    String(String),
    Bool(bool),
    Integer(i64),
    Array(Vec<Value>),
    Table(Table),
    TableArray(Vec<Table>),
}

impl Value {
    /// What the value is, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::String(_) => "a string",
            Value::Bool(_) => "a boolean",
            Value::Integer(_) => "an integer",
            Value::Array(_) => "an array",
            Value::Table(_) => "a table",
            Value::TableArray(_) => "an array of tables",
        }
    }
}

/// A table's keys in the order written.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    pub entries: Vec<Entry>,
    /// The line of the table's header (0 for the root table).
    pub line: u32,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub key: String,
    pub line: u32,
    pub value: Value,
}

impl Table {
    fn find_mut(&mut self, key: &str) -> Option<&mut Entry> {
        self.entries.iter_mut().find(|e| e.key == key)
    }
}

/// Parses a document into its root table; the error names the 1-based line.
pub fn parse(text: &str) -> Result<Table, (u32, String)> {
    let mut root = Table::default();
    // Where `key = value` lines go: the root, a table, or the last table of
    // an array of tables.
    let mut current: Option<(String, bool)> = None;
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
        line: 1,
    };
    loop {
        p.blank_lines();
        if p.i >= p.s.len() {
            break;
        }
        let line = p.line;
        if p.peek() == Some(b'[') {
            let array = p.s[p.i..].starts_with(b"[[");
            p.i += if array { 2 } else { 1 };
            p.spaces();
            let name = p.key()?;
            p.spaces();
            if !p.eat(if array { "]]" } else { "]" }) {
                return Err(p.err("expected `]` closing the table header"));
            }
            p.end_of_line()?;
            match (root.find_mut(&name), array) {
                (None, false) => root.entries.push(Entry {
                    key: name.clone(),
                    line,
                    value: Value::Table(Table {
                        entries: Vec::new(),
                        line,
                    }),
                }),
                (None, true) => root.entries.push(Entry {
                    key: name.clone(),
                    line,
                    value: Value::TableArray(vec![Table {
                        entries: Vec::new(),
                        line,
                    }]),
                }),
                (Some(e), true) if matches!(e.value, Value::TableArray(_)) => {
                    if let Value::TableArray(ts) = &mut e.value {
                        ts.push(Table {
                            entries: Vec::new(),
                            line,
                        });
                    }
                }
                (Some(e), _) => {
                    return Err((
                        line,
                        format!("`{name}` is already defined on line {}", e.line),
                    ))
                }
            }
            current = Some((name, array));
            continue;
        }
        let key = p.key()?;
        p.spaces();
        if !p.eat("=") {
            return Err(p.err(&format!("expected `=` after `{key}`")));
        }
        p.spaces();
        let value = p.value()?;
        p.end_of_line()?;
        let table = match &current {
            None => &mut root,
            Some((name, _)) => match &mut root.find_mut(name).expect("header added").value {
                Value::Table(t) => t,
                Value::TableArray(ts) => ts.last_mut().expect("one table at least"),
                _ => unreachable!("headers make tables"),
            },
        };
        if let Some(e) = table.find_mut(&key) {
            return Err((
                line,
                format!("`{key}` is already defined on line {}", e.line),
            ));
        }
        table.entries.push(Entry { key, line, value });
    }
    Ok(root)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    line: u32,
}

impl Parser<'_> {
    fn err(&self, what: &str) -> (u32, String) {
        (self.line, what.to_string())
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn eat(&mut self, lit: &str) -> bool {
        if self.s[self.i..].starts_with(lit.as_bytes()) {
            self.i += lit.len();
            true
        } else {
            false
        }
    }

    fn spaces(&mut self) {
        while let Some(b' ' | b'\t') = self.peek() {
            self.i += 1;
        }
    }

    fn comment(&mut self) {
        if self.peek() == Some(b'#') {
            while !matches!(self.peek(), None | Some(b'\n')) {
                self.i += 1;
            }
        }
    }

    fn newline(&mut self) -> bool {
        if self.eat("\n") || self.eat("\r\n") {
            self.line += 1;
            true
        } else {
            false
        }
    }

    /// Skips empty lines, comment lines and leading spaces.
    fn blank_lines(&mut self) {
        loop {
            self.spaces();
            self.comment();
            if !self.newline() {
                return;
            }
        }
    }

    fn end_of_line(&mut self) -> Result<(), (u32, String)> {
        self.spaces();
        self.comment();
        if self.i >= self.s.len() || self.newline() {
            Ok(())
        } else {
            Err(self.err("unexpected text after the value (one `key = value` per line)"))
        }
    }

    fn key(&mut self) -> Result<String, (u32, String)> {
        match self.peek() {
            Some(b'"') => self.basic_string(),
            Some(b'\'') => self.literal_string(),
            _ => {
                let start = self.i;
                while let Some(b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_' | b'-') = self.peek()
                {
                    self.i += 1;
                }
                if self.i == start {
                    return Err(self.err("expected a key"));
                }
                if self.peek() == Some(b'.') {
                    return Err(self.err("dotted keys are not supported in pointee.toml"));
                }
                Ok(String::from_utf8_lossy(&self.s[start..self.i]).into_owned())
            }
        }
    }

    fn value(&mut self) -> Result<Value, (u32, String)> {
        match self.peek() {
            Some(b'"') if self.s[self.i..].starts_with(b"\"\"\"") => {
                Err(self.err("multi-line strings are not supported in pointee.toml"))
            }
            Some(b'\'') if self.s[self.i..].starts_with(b"'''") => {
                Err(self.err("multi-line strings are not supported in pointee.toml"))
            }
            Some(b'"') => Ok(Value::String(self.basic_string()?)),
            Some(b'\'') => Ok(Value::String(self.literal_string()?)),
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                loop {
                    self.blank_lines();
                    if self.eat("]") {
                        return Ok(Value::Array(items));
                    }
                    items.push(self.value()?);
                    self.blank_lines();
                    if self.eat(",") {
                        continue;
                    }
                    if self.eat("]") {
                        return Ok(Value::Array(items));
                    }
                    return Err(self.err("expected `,` or `]` in an array"));
                }
            }
            Some(b'{') => Err(self.err("inline tables are not supported in pointee.toml")),
            Some(b't') if self.eat("true") => Ok(Value::Bool(true)),
            Some(b'f') if self.eat("false") => Ok(Value::Bool(false)),
            Some(b'+' | b'-' | b'0'..=b'9') => {
                let start = self.i;
                self.i += 1;
                while let Some(b'0'..=b'9' | b'_') = self.peek() {
                    self.i += 1;
                }
                let text: String = String::from_utf8_lossy(&self.s[start..self.i])
                    .chars()
                    .filter(|&c| c != '_')
                    .collect();
                text.parse().map(Value::Integer).map_err(|_| {
                    self.err("malformed integer (only decimal integers are supported)")
                })
            }
            _ => Err(self.err("expected a value (a string, boolean, integer or array)")),
        }
    }

    fn literal_string(&mut self) -> Result<String, (u32, String)> {
        self.i += 1;
        let start = self.i;
        while !matches!(self.peek(), None | Some(b'\'' | b'\n')) {
            self.i += 1;
        }
        if !self.eat("'") {
            return Err(self.err("unterminated string"));
        }
        String::from_utf8(self.s[start..self.i - 1].to_vec())
            .map_err(|_| self.err("invalid UTF-8 in a string"))
    }

    fn basic_string(&mut self) -> Result<String, (u32, String)> {
        self.i += 1;
        let mut out = Vec::new();
        loop {
            match self.peek() {
                None | Some(b'\n') => return Err(self.err("unterminated string")),
                Some(b'"') => {
                    self.i += 1;
                    break;
                }
                Some(b'\\') => {
                    self.i += 1;
                    let e = self.peek().ok_or_else(|| self.err("unterminated string"))?;
                    self.i += 1;
                    let c = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' | b'U' => {
                            let n = if e == b'u' { 4 } else { 8 };
                            let code = self
                                .s
                                .get(self.i..self.i + n)
                                .and_then(|h| std::str::from_utf8(h).ok())
                                .and_then(|h| u32::from_str_radix(h, 16).ok())
                                .and_then(char::from_u32)
                                .ok_or_else(|| self.err("malformed unicode escape"))?;
                            self.i += n;
                            code
                        }
                        _ => return Err(self.err("unknown escape in a string")),
                    };
                    let mut buf = [0; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                Some(b) => {
                    out.push(b);
                    self.i += 1;
                }
            }
        }
        String::from_utf8(out).map_err(|_| self.err("invalid UTF-8 in a string"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &Value) -> Vec<&str> {
        match v {
            Value::Array(items) => items
                .iter()
                .map(|i| match i {
                    Value::String(s) => s.as_str(),
                    _ => panic!("not a string"),
                })
                .collect(),
            _ => panic!("not an array"),
        }
    }

    #[test]
    fn reads_the_subset() {
        let t = parse(
            "# a comment\nunits = [\"a.c\", 'b\\c.c', # note\n  \"x\\\"y\",\n]\nflag = true\nn = -1_000\n\n[[unit]]\nfile = \"a.c\"\n[[unit]]\nfile = \"b.c\" # trailing\n[other]\nk = []\n",
        )
        .unwrap();
        assert_eq!(t.entries[0].key, "units");
        assert_eq!(strings(&t.entries[0].value), ["a.c", "b\\c.c", "x\"y"]);
        assert_eq!(t.entries[1].value, Value::Bool(true));
        assert_eq!(t.entries[2].value, Value::Integer(-1000));
        let Value::TableArray(units) = &t.entries[3].value else {
            panic!()
        };
        assert_eq!(units.len(), 2);
        assert_eq!(units[1].entries[0].value, Value::String("b.c".into()));
        assert_eq!(units[1].line, 10);
        assert_eq!(t.entries[4].key, "other");
    }

    #[test]
    fn refuses_what_it_does_not_read_with_the_line() {
        for (text, line) in [
            ("a = 1\na = 2\n", 2),
            ("a = {x = 1}\n", 1),
            ("\n\na.b = 1\n", 3),
            ("a = \"\"\"x\"\"\"\n", 1),
            ("a = \"open\n", 1),
            ("a = 1 b = 2\n", 1),
            ("a = [1, 2\n", 2),
            ("[t]\n[t]\n", 2),
            ("a = 2024-01-01\n", 1),
            ("= 3\n", 1),
            ("a = nope\n", 1),
        ] {
            assert_eq!(parse(text).unwrap_err().0, line, "{text:?}");
        }
    }
}
