//! Reading the program from disk: files and directories (searched for
//! sources), with one clear error for anything unreadable. A C directory,
//! a compilation database or a `pointee.toml` is read through the program
//! model (`pointee-project`): its units form the program.

use crate::args::ModelFile;
use crate::workspace::{SourceFile, Workspace};
use pointee_ide::{InputError, Lang as Language};
use pointee_lsp::disk::{io_reason, utf8_text, SeenFolders};
use pointee_project::ProgramModel;
use std::path::Path;
use std::sync::Arc;

/// A program read from disk, and what its model says beyond its files.
pub struct Program {
    pub ws: Workspace,
    /// The model's entry points, when it names them.
    pub entries: Option<Vec<String>>,
    /// Notes of the model (entries of a database it skipped).
    pub notes: Vec<String>,
}

/// The program that `check` analyses: the one a model file describes; for
/// one directory holding C files, the one its model describes
/// (`pointee.toml`, `compile_commands.json`, or every `.c` file under it);
/// otherwise the files given.
pub fn program(paths: &[String], model: Option<&ModelFile>) -> Result<Program, InputError> {
    let model = match (model, paths) {
        (Some(ModelFile::CompileCommands(db)), []) => {
            pointee_project::from_compile_commands(db, &read_text(Path::new(db), db)?)
                .map_err(model_error)?
        }
        (Some(ModelFile::CompileCommands(_)), _) => {
            return Err(InputError(
                "--compile-commands names the program: give no PATH with it".into(),
            ))
        }
        (Some(ModelFile::Manifest(toml)), rest) => {
            let root = match rest {
                [] => pointee_project::paths::parent(toml).to_string(),
                [dir] => dir.clone(),
                _ => {
                    return Err(InputError(
                        "--project takes one DIR, the program's root".into(),
                    ))
                }
            };
            let text = read_text(Path::new(toml), toml)?;
            let listing = listing(&root)?;
            pointee_project::from_manifest(&root, toml, &text, &listing, &mut read_model_file)
                .map_err(model_error)?
        }
        (None, [dir]) if Path::new(dir).is_dir() => {
            let listing = listing(dir)?;
            if !listing.iter().any(|f| f.ends_with(".c")) {
                return plain(paths);
            }
            pointee_project::load(dir, &listing, &mut read_model_file).map_err(model_error)?
        }
        (None, _) => return plain(paths),
    };
    units(model)
}

fn plain(paths: &[String]) -> Result<Program, InputError> {
    Ok(Program {
        ws: workspace(paths)?,
        entries: None,
        notes: Vec::new(),
    })
}

/// The model's units, read.
fn units(model: ProgramModel) -> Result<Program, InputError> {
    if model.units.is_empty() {
        return Err(InputError(format!(
            "{}: the program model names no C translation unit",
            match &model.origin {
                pointee_project::Origin::Manifest(p)
                | pointee_project::Origin::CompileCommands(p) => p,
                pointee_project::Origin::Discovered => &model.root,
            }
        )));
    }
    let mut problems = Problems::default();
    let files: Vec<SourceFile> = model
        .units
        .iter()
        .filter_map(|u| problems.take(read(Path::new(&u.file), &u.file)))
        .collect();
    problems.into_result()?;
    let mut ws = on_disk(Workspace::new(files));
    ws.configs = model
        .units
        .into_iter()
        .map(|u| (u.file, u.config))
        .collect();
    Ok(Program {
        ws,
        entries: model.entries,
        notes: model.notes,
    })
}

fn model_error(e: pointee_project::ModelError) -> InputError {
    InputError(e.0)
}

/// Reads a file the model needs; its error is the reason only (the model
/// names the file).
fn read_model_file(path: &str) -> Result<String, String> {
    read_text(Path::new(path), path).map_err(|e| {
        e.0.strip_prefix(&format!("{path}: "))
            .unwrap_or(&e.0)
            .to_string()
    })
}

/// Every file under `dir`, relative to it (`/`-separated, sorted), outside
/// hidden folders and `target/`. A folder reached again through a symbolic
/// link (a loop, or a second name) is read once.
fn listing(dir: &str) -> Result<Vec<String>, InputError> {
    fn walk(
        dir: &Path,
        prefix: &str,
        seen: &mut Seen,
        out: &mut Vec<String>,
        problems: &mut Problems,
    ) {
        let Some(entries) = seen.enter(dir, problems) else {
            return;
        };
        for p in entries {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if name.starts_with('.') {
                continue;
            }
            let rel = format!("{prefix}{name}");
            if p.is_dir() {
                if name != "target" {
                    walk(&p, &format!("{rel}/"), seen, out, problems);
                }
            } else {
                out.push(rel);
            }
        }
    }
    let mut out = Vec::new();
    let mut problems = Problems::default();
    walk(
        Path::new(dir),
        "",
        &mut Seen::default(),
        &mut out,
        &mut problems,
    );
    problems.into_result()?;
    out.sort();
    Ok(out)
}

/// The folders a walk has entered (a symbolic link back to one is not
/// followed again: loops end).
#[derive(Default)]
struct Seen(SeenFolders);

impl Seen {
    /// The entries of `dir` (sorted) when it is a folder not entered yet;
    /// a folder that cannot be read is a problem.
    fn enter(&mut self, dir: &Path, problems: &mut Problems) -> Option<Vec<std::path::PathBuf>> {
        let shown = dir.display().to_string();
        match self.0.first_visit(dir) {
            Ok(true) => {}
            Ok(false) => return None,
            Err(e) => {
                problems.add(format!("{shown}: {e}"));
                return None;
            }
        }
        match std::fs::read_dir(dir) {
            Ok(entries) => {
                let mut v: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
                v.sort();
                Some(v)
            }
            Err(e) => {
                problems.add(format!("{shown}: {}", io_reason(&e)));
                None
            }
        }
    }
}

/// Every problem of the input found so far: all of them are reported, one
/// line each, rather than the first alone.
#[derive(Default)]
struct Problems(Vec<String>);

impl Problems {
    fn add(&mut self, line: String) {
        self.0.push(line);
    }

    fn take<T>(&mut self, r: Result<T, InputError>) -> Option<T> {
        r.map_err(|e| self.add(e.0)).ok()
    }

    fn into_result(self) -> Result<(), InputError> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(InputError(self.0.join("\n")))
        }
    }
}

/// The files and directories given, as one program; C includes are read
/// from the disk.
pub fn workspace(paths: &[String]) -> Result<Workspace, InputError> {
    let mut files = Vec::new();
    let mut problems = Problems::default();
    let mut seen = Seen::default();
    for p in paths {
        collect(Path::new(p), p, &mut seen, &mut files, &mut problems);
    }
    problems.into_result()?;
    files.sort_by(|a, b| a.name.cmp(&b.name));
    files.dedup_by(|a, b| a.name == b.name);
    Ok(on_disk(Workspace::new(files)))
}

fn on_disk(mut ws: Workspace) -> Workspace {
    ws.system = Some(Arc::new(pointee_lsp::disk::Disk));
    ws
}

/// The position's file plus the `--with` paths, as one program.
pub fn workspace_with(file: &str, with: &[String]) -> Result<Workspace, InputError> {
    let mut paths = vec![file.to_string()];
    paths.extend(with.iter().cloned());
    let ws = workspace(&paths)?;
    if ws.file(file).is_none() {
        return Err(InputError(format!("{file}: not a C or Java source file")));
    }
    Ok(ws)
}

/// Every source file under the paths, each as its own program.
pub fn each_file(paths: &[String]) -> Result<Vec<Workspace>, InputError> {
    let ws = workspace(paths)?;
    Ok(ws
        .files
        .into_iter()
        .map(|f| on_disk(Workspace::new(vec![f])))
        .collect())
}

fn collect(
    path: &Path,
    shown: &str,
    seen: &mut Seen,
    out: &mut Vec<SourceFile>,
    problems: &mut Problems,
) {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) => return problems.add(format!("{shown}: {}", io_reason(&e))),
    };
    if meta.is_dir() {
        let before = (out.len(), problems.0.len());
        walk(path, seen, out, problems);
        if out.len() == before.0 && problems.0.len() == before.1 {
            problems.add(format!("{shown}: directory has no .c, .h or .java files"));
        }
        return;
    }
    if Language::of_path(shown).is_none() {
        return problems.add(format!(
            "{shown}: not a C or Java source file (.c, .h, .java)"
        ));
    }
    if let Some(f) = problems.take(read(path, shown)) {
        out.push(f);
    }
}

/// The `.c` and `.java` files under `dir`; a folder met again through a
/// symbolic link is skipped.
fn walk(dir: &Path, seen: &mut Seen, out: &mut Vec<SourceFile>, problems: &mut Problems) {
    let Some(entries) = seen.enter(dir, problems) else {
        return;
    };
    for p in entries {
        let name = p.display().to_string();
        if p.is_dir() {
            walk(&p, seen, out, problems);
        } else if matches!(p.extension().and_then(|e| e.to_str()), Some("c" | "java")) {
            if let Some(f) = problems.take(read(&p, &name)) {
                out.push(f);
            }
        }
    }
}

fn read(path: &Path, shown: &str) -> Result<SourceFile, InputError> {
    Ok(SourceFile::new(shown, read_text(path, shown)?))
}

fn read_text(path: &Path, shown: &str) -> Result<String, InputError> {
    std::fs::read(path)
        .map_err(|e| io_reason(&e))
        .and_then(utf8_text)
        .map_err(|e| InputError(format!("{shown}: {e}")))
}
