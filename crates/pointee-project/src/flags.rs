//! Compiler command lines: POSIX shell word splitting (the `command` form of
//! a compilation database), and a check that no preprocessing flag lacks
//! its argument. The flags themselves are read by the preprocessor's
//! `Config::from_args`.

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

/// The first preprocessing flag of a compiler's arguments that lacks its
/// argument (`cc x.c -I`): the command is malformed, and
/// `pointee_cpp::Config::from_args`, which reads the flags, would drop it.
pub fn missing_argument(args: &[String]) -> Option<&str> {
    const FLAGS: [&str; 7] = [
        "-I",
        "-D",
        "-U",
        "-include",
        "-iquote",
        "-isystem",
        "-idirafter",
    ];
    args.last()
        .map(String::as_str)
        .filter(|last| FLAGS.contains(last))
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
    fn a_flag_without_its_argument_is_found() {
        assert_eq!(missing_argument(&words("cc x.c -I")), Some("-I"));
        assert_eq!(missing_argument(&words("cc -I inc x.c")), None);
    }
}
