//! The preprocessor's configuration: plain data from the caller (a
//! compilation database's command, `pointee.toml`, or defaults), and a reader
//! of compiler arguments into it.

/// How to preprocess one translation unit.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Config {
    /// `-iquote DIR`: searched for `#include "..."` only, after the
    /// including file's folder.
    pub quote_dirs: Vec<String>,
    /// `-I DIR`: searched for `#include "..."` (after the including file's
    /// folder and `quote_dirs`) and for `#include <...>`, in order.
    pub include_dirs: Vec<String>,
    /// `-isystem DIR` and `-idirafter DIR`, then the bundled C library:
    /// searched after `include_dirs`.
    pub system_dirs: Vec<String>,
    /// `-D` and `-U`, in command-line order, applied after the predefined
    /// macros.
    pub macros: Vec<MacroOption>,
    /// `-include FILE`, in order: each is processed before the main file,
    /// as if by `#include "FILE"` on its first line.
    pub forced_includes: Vec<String>,
    /// `-std=...`; `None` is gcc's default (`gnu17`).
    pub std: Option<Standard>,
}

/// One `-D` or `-U`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MacroOption {
    /// `-DNAME` (`value` "1"), `-DNAME=VALUE`, `-D'F(x)=x'`: `name` may
    /// carry a parameter list.
    Define { name: String, value: String },
    /// `-UNAME`.
    Undef(String),
}

/// A C language standard, as `-std=` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Standard {
    C89,
    C99,
    C11,
    C17,
    C23,
    Gnu89,
    Gnu99,
    Gnu11,
    Gnu17,
    Gnu23,
}

impl Standard {
    /// The `-std=` value, or `None` for one this preprocessor does not know.
    pub fn parse(s: &str) -> Option<Standard> {
        Some(match s {
            "c89" | "c90" | "iso9899:1990" | "ansi" => Standard::C89,
            "c99" | "c9x" | "iso9899:1999" => Standard::C99,
            "c11" | "c1x" | "iso9899:2011" => Standard::C11,
            "c17" | "c18" | "iso9899:2017" | "iso9899:2018" => Standard::C17,
            "c23" | "c2x" => Standard::C23,
            "gnu89" | "gnu90" => Standard::Gnu89,
            "gnu99" | "gnu9x" => Standard::Gnu99,
            "gnu11" | "gnu1x" => Standard::Gnu11,
            "gnu17" | "gnu18" => Standard::Gnu17,
            "gnu23" | "gnu2x" => Standard::Gnu23,
            _ => return None,
        })
    }

    /// `__STDC_VERSION__` (`None` for C89, which has none).
    pub fn version(self) -> Option<u32> {
        match self {
            Standard::C89 | Standard::Gnu89 => None,
            Standard::C99 | Standard::Gnu99 => Some(199901),
            Standard::C11 | Standard::Gnu11 => Some(201112),
            Standard::C17 | Standard::Gnu17 => Some(201710),
            Standard::C23 | Standard::Gnu23 => Some(202311),
        }
    }

    /// A strict ISO mode (`__STRICT_ANSI__`): `-std=cNN`, not `gnuNN`.
    pub fn strict(self) -> bool {
        matches!(
            self,
            Standard::C89 | Standard::C99 | Standard::C11 | Standard::C17 | Standard::C23
        )
    }
}

impl Config {
    /// Reads the preprocessor's options from a compiler's arguments (as a
    /// compilation database lists them; the compiler's name and other
    /// options are skipped). Relative directories and forced includes are
    /// joined to `cwd` (the command's `directory`; `""` keeps them as they
    /// are).
    pub fn from_args<S: AsRef<str>>(args: &[S], cwd: &str) -> Config {
        let mut c = Config::default();
        let mut i = 0;
        let path = |p: &str| crate::join(cwd, p);
        while i < args.len() {
            let a = args[i].as_ref();
            // `-I dir` or `-Idir`: the value in the next argument or attached.
            let mut value = |flag: &str| -> Option<String> {
                let rest = a.strip_prefix(flag)?;
                if !rest.is_empty() {
                    return Some(rest.to_string());
                }
                i += 1;
                args.get(i).map(|s| s.as_ref().to_string())
            };
            if let Some(v) = value("-iquote") {
                c.quote_dirs.push(path(&v));
            } else if let Some(v) = value("-isystem").or_else(|| value("-idirafter")) {
                c.system_dirs.push(path(&v));
            } else if let Some(v) = value("-include") {
                c.forced_includes.push(path(&v));
            } else if let Some(v) = a.strip_prefix("-std=") {
                c.std = Standard::parse(v).or(c.std);
            } else if a == "-ansi" {
                c.std = Some(Standard::C89);
            } else if let Some(v) = value("-I") {
                c.include_dirs.push(path(&v));
            } else if let Some(v) = value("-D") {
                c.macros.push(MacroOption::define(&v));
            } else if let Some(v) = value("-U") {
                c.macros.push(MacroOption::Undef(v));
            }
            i += 1;
        }
        c
    }
}

impl MacroOption {
    /// A `-D` argument: `NAME`, `NAME=VALUE` or `F(x)=BODY`.
    pub fn define(arg: &str) -> MacroOption {
        match arg.split_once('=') {
            Some((name, value)) => MacroOption::Define {
                name: name.to_string(),
                value: value.to_string(),
            },
            None => MacroOption::Define {
                name: arg.to_string(),
                value: "1".to_string(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiler_arguments_are_read() {
        let c = Config::from_args(
            &[
                "gcc",
                "-c",
                "-O2",
                "-Iinclude",
                "-I",
                "/abs",
                "-DA",
                "-DB=2",
                "-D",
                "F(x)=x",
                "-UA",
                "-include",
                "cfg.h",
                "-std=c99",
                "-isystem",
                "sys",
                "-iquote",
                "q",
                "-o",
                "x.o",
                "x.c",
            ],
            "/proj",
        );
        assert_eq!(c.include_dirs, ["/proj/include", "/abs"]);
        assert_eq!(c.system_dirs, ["/proj/sys"]);
        assert_eq!(c.quote_dirs, ["/proj/q"]);
        assert_eq!(c.forced_includes, ["/proj/cfg.h"]);
        assert_eq!(c.std, Some(Standard::C99));
        assert_eq!(
            c.macros,
            [
                MacroOption::define("A"),
                MacroOption::define("B=2"),
                MacroOption::define("F(x)=x"),
                MacroOption::Undef("A".into()),
            ]
        );
        assert_eq!(
            MacroOption::define("A"),
            MacroOption::Define {
                name: "A".into(),
                value: "1".into()
            }
        );
    }
}
