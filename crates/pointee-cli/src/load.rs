//! Reading the program from disk: files and directories (searched for
//! sources), with one clear error for anything unreadable.

use crate::workspace::{SourceFile, Workspace};
use pointee_ide::{InputError, Lang as Language};
use std::path::Path;
use std::sync::Arc;

/// The files and directories given, as one program; C includes are read
/// from the disk.
pub fn workspace(paths: &[String]) -> Result<Workspace, InputError> {
    let mut files = Vec::new();
    for p in paths {
        collect(Path::new(p), p, &mut files)?;
    }
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

fn collect(path: &Path, shown: &str, out: &mut Vec<SourceFile>) -> Result<(), InputError> {
    let meta =
        std::fs::metadata(path).map_err(|e| InputError(format!("{shown}: {}", io_reason(&e))))?;
    if meta.is_dir() {
        let before = out.len();
        walk(path, out)?;
        if out.len() == before {
            return Err(InputError(format!(
                "{shown}: directory has no .c, .h or .java files"
            )));
        }
        return Ok(());
    }
    if Language::of_path(shown).is_none() {
        return Err(InputError(format!(
            "{shown}: not a C or Java source file (.c, .h, .java)"
        )));
    }
    out.push(read(path, shown)?);
    Ok(())
}

fn walk(dir: &Path, out: &mut Vec<SourceFile>) -> Result<(), InputError> {
    let shown = dir.display().to_string();
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| InputError(format!("{shown}: {}", io_reason(&e))))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        let name = p.display().to_string();
        if p.is_dir() {
            walk(&p, out)?;
        } else if matches!(p.extension().and_then(|e| e.to_str()), Some("c" | "java")) {
            out.push(read(&p, &name)?);
        }
    }
    Ok(())
}

fn read(path: &Path, shown: &str) -> Result<SourceFile, InputError> {
    let bytes =
        std::fs::read(path).map_err(|e| InputError(format!("{shown}: {}", io_reason(&e))))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        InputError(format!(
            "{shown}: invalid UTF-8 at byte {}",
            e.utf8_error().valid_up_to()
        ))
    })?;
    Ok(SourceFile::new(shown, text))
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}
