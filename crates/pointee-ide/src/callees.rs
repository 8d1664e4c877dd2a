//! Callees: the functions the innermost call at a position may reach,
//! through function pointers (C, resolved during the analysis) and virtual
//! dispatch (Java, under the configured context sensitivity). The one
//! answer: go to implementation and definition, hover's "may call" and the
//! call hierarchy read the same edges (`Program::callees`).

use crate::program::Program;
use crate::{Analysis, Callee, FilePosition};

pub(crate) fn callees(a: &Analysis, pos: FilePosition) -> Option<Vec<Callee>> {
    let p = Program::of(a, pos.file)?;
    let (fs, call) = p.source(pos.file)?.call_at(pos.offset)?;
    Some(p.callees(&p.program_name(pos.file, &fs.name), call))
}
