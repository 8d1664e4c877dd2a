//! `compile_commands.json`, the standard compilation database: an array of
//! `{ "directory", "file", "arguments" | "command", "output"? }` entries.
//! Each C file is one unit; relative paths start at the entry's
//! `directory` (itself absolute, or relative to the database's folder).

use crate::json::{self, Json};
use crate::{flags, paths, Config, ModelError, Unit};

/// The units of a database, and notes on the entries it skipped.
pub(crate) fn read(path: &str, text: &str) -> Result<(Vec<Unit>, Vec<String>), ModelError> {
    let err = |what: String| ModelError(format!("{path}: {what}"));
    let value = json::parse(text).map_err(|(line, e)| ModelError(format!("{path}:{line}: {e}")))?;
    let Json::Array(entries) = value else {
        return Err(err("expected an array of compile commands".into()));
    };
    let mut units: Vec<Unit> = Vec::new();
    let mut notes = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let n = i + 1;
        if !matches!(e, Json::Object(_)) {
            return Err(err(format!("entry {n} is not an object")));
        }
        let field = |k: &str| -> Result<&str, ModelError> {
            match e.get(k) {
                Some(Json::String(s)) => Ok(s),
                Some(_) => Err(err(format!("entry {n}: `{k}` is not a string"))),
                None => Err(err(format!("entry {n} has no `{k}`"))),
            }
        };
        // Absolute as a rule; a relative one starts at the database's folder.
        let directory = &paths::join(paths::parent(path), field("directory")?);
        let file = paths::join(directory, field("file")?);
        let args: Vec<String> = match (e.get("arguments"), e.get("command")) {
            (Some(Json::Array(a)), _) => a
                .iter()
                .map(|w| {
                    w.as_str()
                        .map(str::to_string)
                        .ok_or_else(|| err(format!("entry {n}: `arguments` holds a non-string")))
                })
                .collect::<Result<_, _>>()?,
            (Some(_), _) => return Err(err(format!("entry {n}: `arguments` is not an array"))),
            (None, Some(Json::String(c))) => {
                flags::shell_words(c).map_err(|e| err(format!("entry {n}: {e}")))?
            }
            (None, Some(_)) => return Err(err(format!("entry {n}: `command` is not a string"))),
            (None, None) => {
                return Err(err(format!(
                    "entry {n} has neither `arguments` nor `command`"
                )))
            }
        };
        if !file.ends_with(".c") {
            notes.push(format!(
                "{path}: entry {n}: {file} is not a C file; skipped"
            ));
            continue;
        }
        if units.iter().any(|u| u.file == file) {
            notes.push(format!(
                "{path}: entry {n}: {file} is listed again; the first entry is used"
            ));
            continue;
        }
        if let Some(p) = flags::missing_argument(&args) {
            return Err(err(format!("entry {n}: `{p}` has no argument")));
        }
        let config = Config::from_args(&args, directory);
        units.push(Unit { file, config });
    }
    Ok((units, notes))
}
