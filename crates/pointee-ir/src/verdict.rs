//! The verdict of an alias check (`MUSTALIAS(p, q)`, `NOALIAS`, ...) over
//! every context that reaches it: one type for both engines and every
//! answer.

/// Whether two pointers may point to the same object, over every analysed
/// context that reaches the check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// Disjoint in every context.
    No,
    /// Some context has a common object.
    May,
    /// The same one object in every context (never claimed by a
    /// flow-insensitive analysis).
    Must,
    /// No context reaches the check.
    Unreachable,
}

impl Verdict {
    /// Whether the check named `check` holds given this verdict: `NOALIAS`
    /// (and its expected-fail form) needs "no", the others (`MUSTALIAS`,
    /// `MAYALIAS`, ...) a possible alias; a check no analysed context
    /// reaches never holds.
    pub fn holds(self, check: &str) -> bool {
        match (check, self) {
            (_, Verdict::Unreachable) => false,
            ("NOALIAS" | "EXPECTEDFAIL_NOALIAS", v) => v == Verdict::No,
            (_, v) => v != Verdict::No,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::No => "no",
            Verdict::May => "may",
            Verdict::Must => "must",
            Verdict::Unreachable => "unreachable",
        }
    }
}
