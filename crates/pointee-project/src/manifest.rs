//! `pointee.toml`: the program's units, how they are preprocessed and its
//! entries, written by the user at the workspace root. The keys are
//! documented in `docs/program-model.md`; an unknown key, a value of the
//! wrong kind or a unit that matches no file is an error naming the line.

use crate::toml::{self, Entry, Table, Value};
use crate::{
    compdb, guessed_config, paths, MacroOption, ModelError, Origin, ProgramModel, Read, Standard,
    Unit,
};

const TOP_KEYS: &[&str] = &[
    "units",
    "exclude",
    "compile_commands",
    "include_dirs",
    "defines",
    "undefines",
    "forced_includes",
    "std",
    "entries",
    "unit",
];
const UNIT_KEYS: &[&str] = &[
    "file",
    "include_dirs",
    "defines",
    "undefines",
    "forced_includes",
    "std",
];

pub(crate) fn read(
    root: &str,
    path: &str,
    text: &str,
    listing: &[String],
    read: &mut Read,
) -> Result<ProgramModel, ModelError> {
    let at = |line: u32, what: String| ModelError(format!("{path}:{line}: {what}"));
    let doc = toml::parse(text).map_err(|(line, e)| at(line, e))?;
    check_keys(&doc, TOP_KEYS, &at)?;
    let mut notes = Vec::new();
    let get = |k: &str| doc.entries.iter().find(|e| e.key == k);

    // The units: from a database, or the files the `units` patterns match.
    let mut units: Vec<Unit> = match get("compile_commands") {
        Some(e) => {
            let rel = string(e, &at)?;
            let db = paths::join(root, &rel);
            let text = read(&db).map_err(|r| at(e.line, format!("{db}: {r}")))?;
            let (units, db_notes) = compdb::read(&db, &text)?;
            notes.extend(db_notes);
            units
        }
        None => crate::c_files(listing)
            .map(|rel| Unit {
                file: paths::join(root, rel),
                config: guessed_config(root, rel, listing),
            })
            .collect(),
    };
    let relative = |u: &Unit| paths::relative_to(&u.file, root).to_string();
    if let Some(e) = get("units") {
        let patterns = strings(e, &at)?;
        let mut chosen = Vec::new();
        for p in &patterns {
            let before = chosen.len();
            for u in &units {
                if paths::glob_match(p, &relative(u)) && !chosen.contains(u) {
                    chosen.push(u.clone());
                }
            }
            if chosen.len() == before && !chosen.iter().any(|u| paths::glob_match(p, &relative(u)))
            {
                return Err(at(e.line, format!("`{p}` matches no C file under {root}")));
            }
        }
        units = chosen;
    }
    if let Some(e) = get("exclude") {
        let patterns = strings(e, &at)?;
        units.retain(|u| !patterns.iter().any(|p| paths::glob_match(p, &relative(u))));
    }
    // Settings for every unit; those given replace the guessed folders.
    let all = Settings::of(&doc, root, &at)?;
    for u in &mut units {
        all.apply(u, get("include_dirs").is_some());
    }
    // Per-unit settings; a `[[unit]]` names a unit if none had it yet.
    if let Some(Entry {
        value: Value::TableArray(tables),
        ..
    }) = get("unit")
    {
        for t in tables {
            check_keys(t, UNIT_KEYS, &at)?;
            let Some(f) = t.entries.iter().find(|e| e.key == "file") else {
                return Err(at(t.line, "a `[[unit]]` needs `file`".into()));
            };
            let file = paths::join(root, &string(f, &at)?);
            let settings = Settings::of(t, root, &at)?;
            match units.iter_mut().find(|u| u.file == file) {
                Some(u) => settings.apply(u, false),
                None => {
                    let rel = paths::relative_to(&file, root).to_string();
                    if !listing.contains(&rel) {
                        return Err(at(f.line, format!("{file}: no such file")));
                    }
                    let mut u = Unit {
                        file,
                        config: guessed_config(root, &rel, listing),
                    };
                    all.apply(&mut u, get("include_dirs").is_some());
                    settings.apply(&mut u, false);
                    units.push(u);
                }
            }
        }
    } else if let Some(e) = get("unit") {
        return Err(at(
            e.line,
            format!(
                "`unit` must be an array of tables (`[[unit]]`), not {}",
                e.value.kind()
            ),
        ));
    }
    let entries = get("entries").map(|e| strings(e, &at)).transpose()?;
    Ok(ProgramModel {
        origin: Origin::Manifest(path.to_string()),
        root: root.to_string(),
        units,
        entries,
        notes,
    })
}

/// Preprocessing settings of the whole program or of one unit.
#[derive(Default)]
struct Settings {
    include_dirs: Vec<String>,
    defines: Vec<String>,
    undefines: Vec<String>,
    forced_includes: Vec<String>,
    std: Option<Standard>,
}

impl Settings {
    fn of(
        t: &Table,
        root: &str,
        at: &impl Fn(u32, String) -> ModelError,
    ) -> Result<Settings, ModelError> {
        let mut s = Settings::default();
        for e in &t.entries {
            match e.key.as_str() {
                "include_dirs" => {
                    s.include_dirs = strings(e, at)?
                        .iter()
                        .map(|d| paths::join(root, d))
                        .collect()
                }
                "defines" => s.defines = strings(e, at)?,
                "undefines" => s.undefines = strings(e, at)?,
                "forced_includes" => {
                    s.forced_includes = strings(e, at)?
                        .iter()
                        .map(|d| paths::join(root, d))
                        .collect()
                }
                "std" => {
                    let v = string(e, at)?;
                    s.std = Some(Standard::parse(&v).ok_or_else(|| {
                        at(
                            e.line,
                            format!("`std` is not a C standard gcc knows: `{v}`"),
                        )
                    })?)
                }
                _ => {}
            }
        }
        Ok(s)
    }

    /// Adds these settings to a unit's (after what it has: a later `-D`
    /// wins; this table's undefines come before its defines). Given
    /// include directories replace guessed ones when `replace`.
    fn apply(&self, u: &mut Unit, replace: bool) {
        let c = &mut u.config;
        if replace {
            c.include_dirs.clear();
        }
        for d in &self.include_dirs {
            if !c.include_dirs.contains(d) {
                c.include_dirs.push(d.clone());
            }
        }
        c.forced_includes
            .extend(self.forced_includes.iter().cloned());
        if self.std.is_some() {
            c.std = self.std;
        }
        c.macros
            .extend(self.undefines.iter().map(|n| MacroOption::Undef(n.clone())));
        c.macros
            .extend(self.defines.iter().map(|d| MacroOption::define(d)));
    }
}

fn check_keys(
    t: &Table,
    known: &[&str],
    at: &impl Fn(u32, String) -> ModelError,
) -> Result<(), ModelError> {
    for e in &t.entries {
        if !known.contains(&e.key.as_str()) {
            return Err(at(
                e.line,
                format!("unknown key `{}` (known: {})", e.key, known.join(", ")),
            ));
        }
    }
    Ok(())
}

fn string(e: &Entry, at: &impl Fn(u32, String) -> ModelError) -> Result<String, ModelError> {
    match &e.value {
        Value::String(s) => Ok(s.clone()),
        v => Err(at(
            e.line,
            format!("`{}` must be a string, not {}", e.key, v.kind()),
        )),
    }
}

fn strings(e: &Entry, at: &impl Fn(u32, String) -> ModelError) -> Result<Vec<String>, ModelError> {
    let bad = || at(e.line, format!("`{}` must be an array of strings", e.key));
    match &e.value {
        Value::Array(items) => items
            .iter()
            .map(|v| match v {
                Value::String(s) => Ok(s.clone()),
                _ => Err(bad()),
            })
            .collect(),
        _ => Err(bad()),
    }
}
