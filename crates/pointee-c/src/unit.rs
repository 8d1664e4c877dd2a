//! A translation unit: preprocessed (pointee-cpp, with the bundled C library
//! beneath the caller's files) before it is lowered, and the lowering's
//! positions (offsets of the expanded text) mapped back to the text the user
//! wrote. An item lands in the file it is written in: the main file's in
//! [`CFile::source`], a header's in [`CFile::headers`]; inside an item,
//! whatever came from elsewhere lands on the macro use or `#include` line of
//! the item's file.

use crate::CFile;
use pointee_cpp::{Config, FileId, FileSystem, Loc, Output, Session, Severity};
use pointee_ir::fxhash::FxHashMap;
use pointee_ir::{FunctionSource, GlobalSource, Note, NoteKind, Range, SourceMap};

/// Preprocesses the unit at `path`: the caller's files over the bundled C
/// library, which is searched after `config`'s directories.
pub fn preprocess(
    session: &mut Session,
    config: &Config,
    fs: &dyn FileSystem,
    path: &str,
) -> Output {
    let mut config = config.clone();
    config.system_dirs.push(crate::libc::DIR.to_string());
    let layered = pointee_cpp::Layered {
        over: fs,
        under: &crate::libc::Bundled,
    };
    session.preprocess(&config, &layered, path)
}

/// A file system of the given files only (what `lower` and `lower_file`
/// read includes from).
pub(crate) fn files_fs(files: &[(&str, &str)]) -> pointee_cpp::MemoryFs {
    let mut fs = pointee_cpp::MemoryFs::new();
    for (name, text) in files {
        fs.insert(name, text);
    }
    fs
}

/// Maps a unit lowered from the expanded text back to the user's text.
pub fn to_source(lowered: CFile, pp: &Output) -> CFile {
    let CFile {
        program,
        source,
        headers: _,
    } = lowered;
    let m = Mapper { pp };
    let mut maps = Maps::new(pp);
    for f in source.functions {
        let home = m.home(f.range);
        let fs = m.function(f, home);
        maps.of(home).functions.push(fs);
    }
    for g in source.globals {
        let home = m.home(g.name_range);
        let gs = GlobalSource {
            name_range: m.lift(g.name_range, home),
            sites: g
                .sites
                .into_iter()
                .map(|mut s| {
                    s.range = m.lift(s.range, home);
                    s
                })
                .collect(),
            name: g.name,
        };
        maps.of(home).globals.push(gs);
    }
    for (key, r) in source.records {
        let home = m.home(r);
        let r = m.lift(r, home);
        maps.of(home).records.push((key, r));
    }
    for n in source.notes {
        let home = m.home(n.range);
        let range = m.lift(n.range, home);
        maps.of(home).notes.push(Note { range, ..n });
    }
    for d in &pp.diagnostics {
        let loc = Loc {
            file: d.file,
            range: d.range,
        };
        let home = m.home_of(loc);
        let range = m.lift_loc(loc, home);
        let kind = match d.severity {
            Severity::Error => NoteKind::Syntax,
            Severity::Warning | Severity::Info => NoteKind::Preprocessor,
        };
        maps.of(home).notes.push(Note {
            range,
            kind,
            message: d.message.clone(),
        });
    }
    for e in &pp.expansions {
        let home = m.home_of(e.at);
        let range = m.lift_loc(e.at, home);
        let text = pp
            .text
            .get(e.expanded.start as usize..e.expanded.end as usize)
            .unwrap_or("");
        maps.of(home).expansions.push(pointee_ir::MacroExpansion {
            range,
            text: text.split_whitespace().collect::<Vec<_>>().join(" "),
        });
    }
    let (source, headers) = maps.finish();
    CFile {
        program,
        source,
        headers,
    }
}

/// The source maps of a unit's files, by path: the main file's first.
struct Maps<'a> {
    pp: &'a Output,
    order: Vec<String>,
    by_path: FxHashMap<String, SourceMap>,
}

impl<'a> Maps<'a> {
    fn new(pp: &'a Output) -> Maps<'a> {
        let main = pp.files.first().map_or(String::new(), |f| f.path.clone());
        let mut by_path = FxHashMap::default();
        by_path.insert(
            main.clone(),
            SourceMap {
                file: main.as_str().into(),
                ..Default::default()
            },
        );
        Maps {
            pp,
            order: vec![main],
            by_path,
        }
    }

    fn of(&mut self, file: FileId) -> &mut SourceMap {
        let pp = self.pp;
        let path = match pp.files.get(file as usize) {
            Some(f) => f.path.clone(),
            None => self.order[0].clone(),
        };
        let path = path.as_str();
        if !self.by_path.contains_key(path) {
            self.order.push(path.to_string());
            self.by_path.insert(
                path.to_string(),
                SourceMap {
                    file: path.into(),
                    ..Default::default()
                },
            );
        }
        self.by_path.get_mut(path).expect("inserted above")
    }

    fn finish(mut self) -> (SourceMap, Vec<SourceMap>) {
        let mut maps = self.order.iter().map(|p| {
            let mut m = self.by_path.remove(p).expect("every path has a map");
            m.notes.sort_by_key(|n| (n.range.start, n.kind));
            m
        });
        let main = maps.next().unwrap_or_default();
        (main, maps.collect())
    }
}

struct Mapper<'a> {
    pp: &'a Output,
}

impl Mapper<'_> {
    /// Where a range of the expanded text lands (the main file's start
    /// when it holds no token).
    fn resolve(&self, r: Range) -> Loc {
        self.pp
            .map
            .resolve(pointee_cpp::Range::new(r.start, r.end))
            .unwrap_or_default()
    }

    /// The inclusion a range of the expanded text is written in.
    fn home(&self, r: Range) -> FileId {
        self.home_of(self.resolve(r))
    }

    /// A place's file, or the main file for the pseudo-files of predefined
    /// and command-line macros (which hold no code).
    fn home_of(&self, loc: Loc) -> FileId {
        match self.pp.files.get(loc.file as usize) {
            Some(f) if f.path.starts_with('<') && f.included_at.is_none() => 0,
            _ => loc.file,
        }
    }

    /// Where a range lands in the inclusion `home`: itself, or the
    /// `#include` line of `home` that brought in the file it is in.
    fn lift(&self, r: Range, home: FileId) -> Range {
        self.lift_loc(self.resolve(r), home)
    }

    fn lift_loc(&self, mut loc: Loc, home: FileId) -> Range {
        loop {
            if loc.file == home {
                return Range::new(loc.range.start as usize, loc.range.end as usize);
            }
            match self
                .pp
                .files
                .get(loc.file as usize)
                .and_then(|f| f.included_at)
            {
                Some(at) => loc = at,
                None => return Range::default(),
            }
        }
    }

    fn function(&self, f: FunctionSource, home: FileId) -> FunctionSource {
        let l = |r: Range| self.lift(r, home);
        FunctionSource {
            name: f.name,
            range: l(f.range),
            name_range: l(f.name_range),
            vars: f.vars.into_iter().map(l).collect(),
            stmts: f.stmts.into_iter().map(l).collect(),
            sites: f
                .sites
                .into_iter()
                .map(|mut s| {
                    s.range = l(s.range);
                    s
                })
                .collect(),
            exprs: f
                .exprs
                .into_iter()
                .map(|mut e| {
                    e.range = l(e.range);
                    e
                })
                .collect(),
            calls: f
                .calls
                .into_iter()
                .map(|mut c| {
                    c.range = l(c.range);
                    c.callee_range = l(c.callee_range);
                    c
                })
                .collect(),
        }
    }
}
