//! Callees: the functions the innermost call at a position may reach,
//! through function pointers (C, resolved during the analysis) and virtual
//! dispatch (Java, under the configured context sensitivity).

use crate::c::CProgram;
use crate::java::JavaProgram;
use crate::{Analysis, Callee, FilePosition, FileRange};
use pointee_ir::{Basic, Callee as IrCallee};

pub(crate) fn callees(a: &Analysis, pos: FilePosition) -> Option<Vec<Callee>> {
    if let Some(c) = CProgram::of(a, pos.file) {
        return c_callees(&c, pos);
    }
    java_callees(&JavaProgram::of(a, pos.file)?, pos)
}

fn c_callees(c: &CProgram, pos: FilePosition) -> Option<Vec<Callee>> {
    let (fs, call) = c.source(pos.file).call_at(pos.offset)?;
    let function = c.program_name(pos.file, &fs.name);
    let engine = c.engine()?;
    let mut names = engine.with(|_, a| a.callees(&function, call.stmt));
    if names.is_empty() {
        // No context reaches the call: a direct call still names its callee.
        if let Some(f) = pointee_db::c_program(c.db, c.project)
            .as_ref()
            .ok()
            .and_then(|p| p.function(&function).cloned())
        {
            pointee_ir::for_each_basic(&f.body, &mut |id, b| {
                if let Basic::Call {
                    callee: IrCallee::Direct(n),
                    ..
                } = b
                {
                    if id == call.stmt {
                        names.push(n.clone());
                    }
                }
            });
        }
    }
    let mut out: Vec<Callee> = names
        .into_iter()
        .map(|n| Callee {
            decl: c.function_source(&n).map(|(file, fs)| FileRange {
                file,
                range: fs.name_range,
            }),
            name: n.to_string(),
        })
        .collect();
    out.sort_by(|x, y| x.name.cmp(&y.name));
    Some(out)
}

fn java_callees(j: &JavaProgram, pos: FilePosition) -> Option<Vec<Callee>> {
    let sm = j.source_map(pos.file)?;
    let (fs, call) = sm.call_at(pos.offset)?;
    let Some(pta) = j.pta else {
        return Some(Vec::new());
    };
    let Some(m) = pta.method(&fs.name) else {
        return Some(Vec::new());
    };
    let mut out: Vec<Callee> = pta
        .callees(m, call.site.0)
        .into_iter()
        .map(|t| {
            let name = pta.facts.method_names[t as usize].clone();
            let decl = j.function_source(&name).map(|(file, fs)| FileRange {
                file,
                range: fs.name_range,
            });
            Callee { name, decl }
        })
        .collect();
    j.sort_callees(&mut out);
    Some(out)
}
