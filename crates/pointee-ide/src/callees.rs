//! Callees: the functions the innermost call at a position may reach,
//! through function pointers (C, resolved during the analysis) and virtual
//! dispatch (Java, under the configured context sensitivity). The one
//! answer: go to implementation and definition, hover's "may call" and the
//! call hierarchy read the same edges (`Program::callees`).

use crate::program::Program;
use crate::{Analysis, Callee, FilePosition};

pub(crate) fn callees(a: &Analysis, pos: FilePosition) -> Option<Vec<Callee>> {
    let p = Program::of(a, pos.file)?;
    p.callees_in_copies(pos.file, |m| m.call_at(pos.offset))
}
