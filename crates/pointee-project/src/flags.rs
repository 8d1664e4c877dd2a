//! Compiler command lines: POSIX shell word splitting (the `command` form of
//! a compilation database) and the flags that shape preprocessing (`-I`,
//! `-iquote`, `-isystem`, `-idirafter`, `-D`, `-U`, `-include`, `-imacros`,
//! `-std`, `-ansi`). Every other flag is ignored: it does not change what
//! the preprocessor reads.

use crate::paths;
use crate::UnitConfig;

/// Splits a command line as a POSIX shell does (without expansions):
/// blanks separate words, `'...'` is literal, `"..."` keeps `\` before
/// `$`, `` ` ``, `"`, `\` and newline only, `\` outside quotes escapes the
/// next character.
pub fn shell_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' | '\r' => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => cur.push(c),
                        None => return Err("unterminated `'` in the command".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('$' | '`' | '"' | '\\')) => cur.push(c),
                            Some('\n') => {}
                            Some(c) => {
                                cur.push('\\');
                                cur.push(c);
                            }
                            None => return Err("unterminated `\"` in the command".into()),
                        },
                        Some(c) => cur.push(c),
                        None => return Err("unterminated `\"` in the command".into()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\n') => {}
                Some(c) => {
                    in_word = true;
                    cur.push(c);
                }
                None => return Err("the command ends with `\\`".into()),
            },
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

/// What `-D`/`-U` flags leave, in command-line order: a name defined (with
/// its value) or undefined.
#[derive(Default)]
pub(crate) struct Macros(Vec<(String, Option<String>)>);

impl Macros {
    /// `-D NAME`, `-D NAME=VALUE`, `-D 'F(x)=x'`: the name is everything
    /// before `=` (with a function-like macro's parameters); no `=` means
    /// the value `1`, as gcc does.
    pub(crate) fn define(&mut self, arg: &str) {
        let (name, value) = arg.split_once('=').unwrap_or((arg, "1"));
        self.set(name, Some(value.to_string()));
    }

    pub(crate) fn undefine(&mut self, name: &str) {
        self.set(name, None);
    }

    fn set(&mut self, name: &str, value: Option<String>) {
        // The macro's name, without a function-like macro's parameters.
        let key = |n: &str| n.split('(').next().unwrap_or(n).trim().to_string();
        let k = key(name);
        self.0.retain(|(n, _)| key(n) != k);
        self.0.push((name.trim().to_string(), value));
    }

    /// Puts the net effect into `config`: the last word on each name wins,
    /// which is what gcc's in-order processing gives (each name ends in one
    /// of the two lists; the preprocessor applies undefines before defines).
    pub(crate) fn apply(self, config: &mut UnitConfig) {
        for (name, value) in self.0 {
            let base = name.split('(').next().unwrap_or(&name).to_string();
            config
                .defines
                .retain(|(n, _)| n.split('(').next() != Some(&base));
            config.undefines.retain(|n| *n != base);
            match value {
                Some(v) => config.defines.push((name, v)),
                None => config.undefines.push(base),
            }
        }
    }
}

/// Reads the preprocessing flags of a compiler's arguments (the compiler
/// itself first), with relative paths taken from `dir`, into `config`.
/// Returns the flags it could not complete (a flag missing its argument).
pub fn read_flags(args: &[String], dir: &str, config: &mut UnitConfig) -> Vec<String> {
    let mut problems = Vec::new();
    let mut macros = Macros::default();
    let mut quote = Vec::new();
    let mut plain = Vec::new();
    let mut system = Vec::new();
    let mut after = Vec::new();
    let mut i = 1;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        // A flag with its argument attached (`-Idir`) or in the next word.
        let mut take = |flag: &str| -> Option<Option<String>> {
            let rest = a.strip_prefix(flag)?;
            if !rest.is_empty() {
                return Some(Some(rest.to_string()));
            }
            let next = args.get(i).cloned();
            if next.is_some() {
                i += 1;
            }
            Some(next)
        };
        // Longer flags first: `-include` before `-I`, `-isystem` before `-i...`.
        if let Some(v) = take("-include") {
            match v {
                Some(f) => config.forced_includes.push(paths::join(dir, &f)),
                None => problems.push("-include".to_string()),
            }
        } else if let Some(v) = take("-imacros") {
            match v {
                Some(f) => config.forced_includes.push(paths::join(dir, &f)),
                None => problems.push("-imacros".to_string()),
            }
        } else if let Some(v) = take("-isystem") {
            match v {
                Some(d) => system.push(paths::join(dir, &d)),
                None => problems.push("-isystem".to_string()),
            }
        } else if let Some(v) = take("-iquote") {
            match v {
                Some(d) => quote.push(paths::join(dir, &d)),
                None => problems.push("-iquote".to_string()),
            }
        } else if let Some(v) = take("-idirafter") {
            match v {
                Some(d) => after.push(paths::join(dir, &d)),
                None => problems.push("-idirafter".to_string()),
            }
        } else if let Some(v) = take("-I") {
            match v {
                Some(d) => plain.push(paths::join(dir, &d)),
                None => problems.push("-I".to_string()),
            }
        } else if let Some(v) = take("-D") {
            match v {
                Some(m) => macros.define(&m),
                None => problems.push("-D".to_string()),
            }
        } else if let Some(v) = take("-U") {
            match v {
                Some(m) => macros.undefine(&m),
                None => problems.push("-U".to_string()),
            }
        } else if let Some(s) = a.strip_prefix("-std=").or_else(|| a.strip_prefix("--std=")) {
            config.std = Some(s.to_string());
        } else if a == "-ansi" {
            config.std = Some("c90".to_string());
        } else if matches!(a.as_str(), "-o" | "-MF" | "-MT" | "-MQ" | "-x" | "-Xclang") {
            // Flags whose argument is a separate word that is not a source.
            i += 1;
        }
    }
    config.quote_dirs.extend(quote);
    config.include_dirs.extend(plain);
    config.include_dirs.extend(system);
    config.include_dirs.extend(after);
    macros.apply(config);
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        shell_words(s).unwrap()
    }

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(
            words(r#"cc -DA="x y" '-DB=it'"'"'s' -DC=a\ b  -I"inc dir" "a\b\"c" """#),
            [
                "cc",
                "-DA=x y",
                "-DB=it's",
                "-DC=a b",
                "-Iinc dir",
                "a\\b\"c",
                ""
            ]
        );
        assert_eq!(words("a\\\nb"), ["ab"]);
        assert!(shell_words("cc 'open").is_err());
        assert!(shell_words("cc \"open").is_err());
        assert!(shell_words("cc \\").is_err());
    }

    #[test]
    fn reads_preprocessing_flags_in_order() {
        let args = words(
            "gcc -c -o x.o -Iinc -I ../other -iquote q -isystem /sys -idirafter late -DA -DB=2 -D C=3 \
             -UA -DA=4 -DD -UD -include cfg.h -std=c99 -Wall -O2 -DF(x)=x src/x.c",
        );
        let mut c = UnitConfig::default();
        let problems = read_flags(&args, "/w/build", &mut c);
        assert!(problems.is_empty());
        assert_eq!(
            c.include_dirs,
            ["/w/build/inc", "/w/other", "/sys", "/w/build/late"]
        );
        assert_eq!(c.quote_dirs, ["/w/build/q"]);
        assert_eq!(
            c.defines,
            [
                ("B".to_string(), "2".to_string()),
                ("C".into(), "3".into()),
                ("A".into(), "4".into()),
                ("F(x)".into(), "x".into())
            ]
        );
        assert_eq!(c.undefines, ["D"]);
        assert_eq!(c.forced_includes, ["/w/build/cfg.h"]);
        assert_eq!(c.std.as_deref(), Some("c99"));
    }

    #[test]
    fn a_flag_without_its_argument_is_reported() {
        let mut c = UnitConfig::default();
        assert_eq!(read_flags(&words("cc x.c -I"), "/", &mut c), ["-I"]);
    }
}
