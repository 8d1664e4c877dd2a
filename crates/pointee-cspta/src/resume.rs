//! Solving again after an edit, from the previous solution.
//!
//! The rules are monotone: when every fact of the old program is, under a
//! renaming of its ids, a fact of the new one (an edit that only adds
//! statements to method bodies), the least solution of the new facts
//! includes the renamed old solution. So the solver renames its old fixed
//! point into the new ids, applies every fact of the edited methods again in
//! each of their reached contexts (the other methods' facts are the old ones,
//! already applied) and runs the worklist to the new least fixed point.
//!
//! The new facts are the old ones with the edited methods' facts made again
//! (`Facts::edited`: names new to the program get ids after the old ones).
//! What is renamed: the edited methods' variables, sites and allocations,
//! by aligning their old lists with the new ones (an added statement adds
//! variables and sites in one place, and the temporaries after it move up
//! by the number it made: see `ways`). The renaming is only a guess;
//! what makes the result exact is the check that the renamed old facts of
//! every edited method are among the new ones. An edit that only removed
//! statements (the new facts are old ones, the sites the same) goes on
//! too, retracting what the removed facts reached (`retract.rs`).
//!
//! When the declarations changed (methods or classes added or removed, a
//! class's methods), the new facts are made afresh and the old ids renamed
//! by name (`redeclared`): the old solution goes on when every method it
//! reached is still there with the same facts (an edited one with more),
//! and the classes, types and dispatch targets it used are the same. A
//! method or class only added passes; one removed passes when the old
//! solution never reached it. When anything else changed (a supertype, a
//! dispatch target, a root removed, the variant) or no check holds, the
//! program is solved from scratch.
//!
//! It must never answer anything but the least solution of the new program:
//! `tests/resume.rs` compares it with a fresh solve on random edits.

use crate::compile::{CallKind, Facts, MethodFacts};
use crate::context::{Elem, Variant};
use crate::fxhash::{FxHashMap, FxHashSet};
use crate::result::Analysis;
use crate::solver::{Interrupted, Solver, State, NOT_VAR};
use pointee_ir::{Function, Program, VarKind};
use std::hash::Hash;

/// How a solve after an edit went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resumed {
    /// From the previous solution, applying again the facts of this many
    /// edited methods (0: the facts are the old ones, renamed).
    Continued { edited_methods: usize },
    /// From the previous solution after an edit that removed facts: the
    /// nodes the removed facts reached were emptied and filled again
    /// (`retract.rs`), the facts of this many edited methods applied again.
    Retracted {
        edited_methods: usize,
        emptied_nodes: usize,
    },
    /// From scratch, and why.
    Fresh(&'static str),
}

impl Analysis {
    /// Analyses `program` as [`Analysis::run`] does, going on from `prev`,
    /// the analysis of `prev_program`, when the edit only added facts.
    /// Stops (`Err(Interrupted)`) as [`Analysis::run_interruptible`] does.
    pub fn resume(
        prev: &Analysis,
        prev_program: &Program,
        program: &Program,
        roots: &[&str],
        variant: Variant,
        interrupt: Option<&dyn Fn() -> bool>,
    ) -> Result<(Analysis, Resumed), Interrupted> {
        let (facts, st, edited, retracted) =
            match rename(prev, prev_program, program, roots, variant) {
                Ok(r) => r,
                Err(why) => {
                    let a = match interrupt {
                        Some(i) => Analysis::run_interruptible(program, roots, variant, i)?,
                        None => Analysis::run(program, roots, variant),
                    };
                    return Ok((a, Resumed::Fresh(why)));
                }
            };
        // Roots added since are reached now; the others are already.
        let root_ids: Vec<u32> = roots
            .iter()
            .filter_map(|r| facts.method_index.get(*r).copied())
            .collect();
        let mut s = Solver::with_state(&facts, &variant, st);
        let edited_contexts: Vec<u32> = edited
            .iter()
            .flat_map(|&m| prev.contexts_of(m).iter().copied())
            .collect();
        let mut again = edited_contexts.clone();
        if let Some((_, contexts)) = &retracted {
            again.extend(contexts.iter().filter(|c| !edited_contexts.contains(c)));
        }
        for &mc in &again {
            let mf = &facts.methods[s.st.reached[mc as usize].method as usize];
            s.st.to_init.extend(&mf.inits);
            s.add_method_facts(mc);
            for v in 0..mf.nvars {
                if mf.uses[v as usize].is_empty() {
                    continue;
                }
                let pts = s.st.pt[s.var_node(mc, v) as usize].clone();
                if !pts.is_empty() {
                    s.process_uses(mc, v, &pts);
                }
            }
        }
        let resumed = match &retracted {
            None => Resumed::Continued {
                edited_methods: edited.len(),
            },
            Some((emptied, _)) => {
                s.refill(emptied, &edited_contexts);
                Resumed::Retracted {
                    edited_methods: edited.len(),
                    emptied_nodes: emptied.iter().filter(|&&e| e).count(),
                }
            }
        };
        s.solve(&root_ids, interrupt)?;
        let st = s.st;
        Ok((Analysis::finish(facts, variant, roots, st), resumed))
    }
}

/// Old ids to new ones (NOT_VAR: gone).
struct Renaming {
    allocs: Vec<u32>,
    fields: Vec<u32>,
    statics: Vec<u32>,
    sigs: Vec<u32>,
    types: Vec<u32>,
    /// Methods and classes by name; `None` when the declarations are the
    /// same (the ids too).
    methods: Option<Vec<u32>>,
    classes: Option<Vec<u32>>,
    /// Per edited method: its variables, sites and calls (index into
    /// `MethodFacts::calls`).
    edited: FxHashMap<u32, MethodRenaming>,
}

struct MethodRenaming {
    vars: Vec<u32>,
    sites: FxHashMap<u32, u32>,
    calls: Vec<u32>,
}

impl Renaming {
    fn method(&self, m: u32) -> u32 {
        self.methods.as_ref().map_or(m, |ms| ms[m as usize])
    }

    fn class(&self, c: u32) -> u32 {
        self.classes.as_ref().map_or(c, |cs| cs[c as usize])
    }

    fn site(&self, method: u32, site: u32) -> Option<u32> {
        match self.edited.get(&method) {
            Some(m) => m.sites.get(&site).copied(),
            None => Some(site),
        }
    }

    fn call(&self, method: u32, call: u32) -> u32 {
        match self.edited.get(&method) {
            Some(m) => m.calls[call as usize],
            None => call,
        }
    }
}

/// What an edit that removed facts emptied (by node) and the reached
/// pairs whose facts are applied again (`retract.rs`).
type Retracted = (Vec<bool>, Vec<u32>);

/// The new facts, the old state renamed into them, the edited methods,
/// and what was retracted.
type Renamed = (Facts, State, Vec<u32>, Option<Retracted>);

/// The new program's facts and the old solver state renamed into them,
/// with the edited methods, and what was retracted when the edit removed
/// facts; `Err` (why) when the old solution cannot be gone on from.
fn rename(
    prev: &Analysis,
    prev_program: &Program,
    program: &Program,
    roots: &[&str],
    variant: Variant,
) -> Result<Renamed, &'static str> {
    if prev.variant != variant {
        return Err("another context sensitivity");
    }
    // A root added (a file's literal pool) is reached by the solve.
    if !prev.roots.iter().all(|r| roots.contains(&r.as_str())) {
        return Err("a root was removed");
    }
    let (old_fs, new_fs) = (&prev_program.functions, &program.functions);
    if !same_class_facts(&prev_program.classes, &program.classes)
        || old_fs.len() != new_fs.len()
        || old_fs.iter().zip(new_fs).any(|(a, b)| a.name != b.name)
    {
        return redeclared(prev, prev_program, program);
    }
    let edited: Vec<u32> = (0..new_fs.len())
        .filter(|&i| !std::sync::Arc::ptr_eq(&old_fs[i], &new_fs[i]) && old_fs[i] != new_fs[i])
        .map(|i| i as u32)
        .collect();
    let facts = Facts::edited(&prev.facts, program, &edited);
    let old = &prev.facts;
    if talks_to_library_now(old, &facts) {
        return Err("the program talks to the library now");
    }
    let missing = "a name of the old program is gone";
    let by_name = |names: &[String], index: &FxHashMap<String, u32>| {
        names
            .iter()
            .map(|n| index.get(n).copied())
            .collect::<Option<Vec<u32>>>()
            .ok_or(missing)
    };
    let mut r = Renaming {
        // Every allocation keeps its id but those of the edited methods.
        allocs: (0..old.allocs.len() as u32).collect(),
        fields: by_name(&old.fields, &facts.field_index)?,
        statics: by_name(&old.statics, &facts.static_index)?,
        sigs: by_name(&old.sigs, &facts.sig_index)?,
        types: by_name(&old.type_names, &facts.type_index)?,
        methods: None,
        classes: None,
        edited: FxHashMap::default(),
    };
    // Each edited method: the first alignment of its old variables and
    // sites with the new ones under which its renamed old facts are all
    // new facts; else the first under which its new facts are old ones
    // (an edit that removed facts).
    let mut removals = FxHashMap::default();
    for &m in &edited {
        let (om, nm) = (&old.methods[m as usize], &facts.methods[m as usize]);
        let (old_f, new_f) = (&old_fs[m as usize], &new_fs[m as usize]);
        if aligned_adding(&mut r, m, (old_f, new_f), (old, &facts)) {
            continue;
        }
        let (renaming, removed) = removal(old_f, new_f, (old, om), (&facts, nm))
            .ok_or("the edit removed and added facts, or removed a `new` or a call")?;
        r.edited.insert(m, renaming);
        rename_allocs(&mut r, m, old, &facts).ok_or("an allocation does not rename")?;
        removals.insert(m, removed);
    }
    let mut st = prev.state();
    let retracted = if removals.is_empty() {
        None
    } else {
        let contexts_of = |m: u32| prev.contexts_of(m).to_vec();
        Some(crate::retract::retract(
            &mut st,
            old,
            &removals,
            &contexts_of,
        )?)
    };
    let st = rename_state(st, prev, &facts, &r).ok_or("a context does not rename")?;
    Ok((facts, st, edited, retracted))
}

/// The new program declares other methods or classes (added, removed, a
/// class's methods changed): its facts are made afresh and the old ids
/// renamed by name. The old solution goes on when nothing it used
/// changed: every method it reached is still there with the same facts
/// (an edited one with more), and so are the classes of its objects and
/// contexts, the supertypes of every class, the types its casts tested,
/// and the targets of every dispatch it did. A method or class added
/// that none of that names only adds facts; one removed that the old
/// solution never reached goes too. Anything else solves from scratch.
fn redeclared(
    prev: &Analysis,
    prev_program: &Program,
    program: &Program,
) -> Result<Renamed, &'static str> {
    let old = &prev.facts;
    let facts = Facts::new(program);
    if talks_to_library_now(old, &facts) {
        return Err("the program talks to the library now");
    }
    let st = prev.state();
    let by_name = |names: &[String], index: &FxHashMap<String, u32>| -> Vec<u32> {
        names
            .iter()
            .map(|n| index.get(n).copied().unwrap_or(NOT_VAR))
            .collect()
    };
    // A method's id is the first function of its name (`Facts::new`).
    let methods = old
        .method_names
        .iter()
        .enumerate()
        .map(|(i, n)| match old.method_index.get(n) {
            Some(&first) if first == i as u32 => {
                facts.method_index.get(n).copied().unwrap_or(NOT_VAR)
            }
            _ => NOT_VAR,
        })
        .collect();
    let mut r = Renaming {
        allocs: vec![NOT_VAR; old.allocs.len()],
        fields: by_name(&old.fields, &facts.field_index),
        statics: by_name(&old.statics, &facts.static_index),
        sigs: by_name(&old.sigs, &facts.sig_index),
        types: by_name(&old.type_names, &facts.type_index),
        methods: Some(methods),
        classes: Some(by_name(&old.classes, &facts.class_index)),
        edited: FxHashMap::default(),
    };
    same_hierarchy(old, &facts, &r)?;
    let seen: Vec<u32> = (0..old.methods.len() as u32)
        .filter(|&m| st.method_seen[m as usize])
        .collect();
    if seen.iter().any(|&m| r.method(m) == NOT_VAR) {
        return Err("a method the last solve reached is gone");
    }
    let (old_fs, new_fs) = (&prev_program.functions, &program.functions);
    let mut edited = Vec::new();
    for &m in &seen {
        let n = r.method(m);
        let (old_f, new_f) = (&old_fs[m as usize], &new_fs[n as usize]);
        let (om, nm) = (&old.methods[m as usize], &facts.methods[n as usize]);
        if std::sync::Arc::ptr_eq(old_f, new_f) || old_f == new_f {
            if rename_allocs(&mut r, m, old, &facts).is_none() || !same_facts(om, nm, &r) {
                return Err("a reached method's facts changed with the declarations");
            }
            continue;
        }
        if !aligned_adding(&mut r, m, (old_f, new_f), (old, &facts)) {
            return Err("a reached method lost facts while declarations changed");
        }
        edited.push(m);
    }
    for (a, &na) in old.allocs.iter().zip(&r.allocs) {
        if na == NOT_VAR {
            continue;
        }
        let b = &facts.allocs[na as usize];
        if (a.library, a.empty, a.is_string) != (b.library, b.empty, b.is_string)
            || r.class(a.in_type) != b.in_type
            || a.dispatch_class.map(|c| r.class(c)) != b.dispatch_class
        {
            return Err("an object's class changed");
        }
    }
    for (&(c, sig), &target) in &st.dispatched {
        let class = (c != u32::MAX).then(|| r.class(c));
        let sig = r.sigs[sig as usize];
        if class == Some(NOT_VAR) || sig == NOT_VAR {
            return Err("a class an object dispatched on is gone");
        }
        if facts.dispatch(class, sig) != target.map(|m| r.method(m)) {
            return Err("a call dispatches to another method");
        }
    }
    let mut st = rename_state(st, prev, &facts, &r).ok_or("a name of the last solve is gone")?;
    // A class that gained a static initialiser runs it where it is
    // initialised (`AddReachable` of a pair already reached is nothing).
    for &m in &seen {
        st.to_init
            .extend(&facts.methods[r.method(m) as usize].inits);
    }
    Ok((facts, st, edited, None))
}

/// The library heap is new: the old solve's calls on library objects
/// went nowhere, and would now go through it.
fn talks_to_library_now(old: &Facts, new: &Facts) -> bool {
    old.library_heap.is_none() && new.library_heap.is_some()
}

/// Every class of the old program that is still there has the same
/// supertypes (of the program and of the library), and every type the old
/// facts named tests as before: what casts and dispatch read of the
/// classes the old solution's objects have.
fn same_hierarchy(old: &Facts, new: &Facts, r: &Renaming) -> Result<(), &'static str> {
    for c in 0..old.classes.len() {
        let n = r.class(c as u32);
        if n == NOT_VAR {
            continue;
        }
        let (c, n) = (c, n as usize);
        if old.superclass[c].map(|s| r.class(s)) != new.superclass[n]
            || !old.supers[c]
                .iter()
                .map(|&s| r.class(s))
                .eq(new.supers[n].iter().copied())
            || old.library_supers[c] != new.library_supers[n]
            || old.open[c] != new.open[n]
        {
            return Err("a class's supertypes changed");
        }
    }
    for (t, info) in old.types.iter().enumerate() {
        let nt = r.types[t];
        if nt == NOT_VAR {
            continue;
        }
        let ninfo = &new.types[nt as usize];
        if info.class.map(|c| r.class(c)) != ninfo.class
            || info.elem.map(|e| r.types[e as usize]) != ninfo.elem
            || (info.prim, info.object, info.array_super)
                != (ninfo.prim, ninfo.object, ninfo.array_super)
        {
            return Err("a type tests otherwise");
        }
    }
    Ok(())
}

/// Whether an unedited method's new facts are its old ones renamed (its
/// function is the same, so they come in the same order); it may
/// initialise more classes (one that gained a static initialiser).
fn same_facts(old: &MethodFacts, new: &MethodFacts, r: &Renaming) -> bool {
    let (f, s, t, a) = (&r.fields, &r.statics, &r.types, &r.allocs);
    let kind = |k: &CallKind| match *k {
        CallKind::Static(m) => CallKind::Static(r.method(m)),
        CallKind::Special(m, x) => CallKind::Special(r.method(m), x),
        CallKind::Virtual(x, sig) => CallKind::Virtual(x, r.sigs[sig as usize]),
    };
    let same_kind = |a: &CallKind, b: &CallKind| match (kind(a), b) {
        (CallKind::Static(x), CallKind::Static(y)) => x == *y,
        (CallKind::Special(x, v), CallKind::Special(y, w)) => x == *y && v == *w,
        (CallKind::Virtual(v, x), CallKind::Virtual(w, y)) => v == *w && x == *y,
        _ => false,
    };
    /// Each old item, renamed, is the new item in its place.
    fn same<T, U: PartialEq>(old: &[T], new: &[U], rename: impl Fn(&T) -> U) -> bool {
        old.len() == new.len() && old.iter().zip(new).all(|(o, n)| rename(o) == *n)
    }
    old.nvars == new.nvars
        && old.params == new.params
        && old.this == new.this
        && old.ret == new.ret
        && r.class(old.class) == new.class
        && old.copies == new.copies
        && same(&old.news, &new.news, |&(x, al)| (x, a[al as usize]))
        && same(&old.loads, &new.loads, |&(x, y, g)| (x, y, f[g as usize]))
        && same(&old.stores, &new.stores, |&(x, g, y)| (x, f[g as usize], y))
        && same(&old.sloads, &new.sloads, |&(x, g)| (x, s[g as usize]))
        && same(&old.sstores, &new.sstores, |&(g, y)| (s[g as usize], y))
        && same(&old.filtered_sloads, &new.filtered_sloads, |&(x, g, ty)| {
            (x, s[g as usize], t[ty as usize])
        })
        && old.casts.len() == new.casts.len()
        && old
            .casts
            .iter()
            .zip(&new.casts)
            .all(|(o, n)| (o.from, o.to, t[o.ty as usize]) == (n.from, n.to, n.ty))
        && old.calls.len() == new.calls.len()
        && old.calls.iter().zip(&new.calls).all(|(o, n)| {
            o.site == n.site && o.lhs == n.lhs && o.args == n.args && same_kind(&o.kind, &n.kind)
        })
        && old.inits.iter().all(|&m| new.inits.contains(&r.method(m)))
}

/// The classes give the same facts (hierarchy, methods, dispatch): all
/// but their fields, which the facts do not read (a field is named by the
/// loads and stores of it), so that a field added or removed goes on from
/// the last solve like the edit of the initialiser that comes with it.
fn same_class_facts(old: &[pointee_ir::Class], new: &[pointee_ir::Class]) -> bool {
    // Destructured: a part added to `Class` must be placed here.
    fn facts(c: &pointee_ir::Class) -> impl PartialEq + '_ {
        let pointee_ir::Class {
            name,
            superclass,
            interfaces,
            is_interface,
            is_abstract,
            fields: _,
            methods,
        } = c;
        (
            name,
            superclass,
            interfaces,
            *is_interface,
            *is_abstract,
            methods,
        )
    }
    old.len() == new.len() && old.iter().zip(new).all(|(a, b)| facts(a) == facts(b))
}

/// Renames the edited method `m` by the first alignment of its old
/// variables and sites with the new ones under which its renamed old
/// facts are all new facts (an edit that added facts); whether one is.
fn aligned_adding(
    r: &mut Renaming,
    m: u32,
    (old_f, new_f): (&Function, &Function),
    (old, facts): (&Facts, &Facts),
) -> bool {
    let (om, nm) = (
        &old.methods[m as usize],
        &facts.methods[r.method(m) as usize],
    );
    for renaming in alignments(old_f, new_f, (old, om), (facts, nm)) {
        r.edited.insert(m, renaming);
        if rename_allocs(r, m, old, facts).is_some() && includes(om, nm, m, r) {
            return true;
        }
    }
    false
}

/// The renaming of an edited method whose new facts are all old ones
/// (statements removed that allocate nothing and call nothing: its sites
/// are the same), with the facts it removed; `None` otherwise.
fn removal(
    old_f: &Function,
    new_f: &Function,
    (old_facts, old): (&Facts, &MethodFacts),
    (new_facts, new): (&Facts, &MethodFacts),
) -> Option<(MethodRenaming, crate::retract::Removed)> {
    let old_sites = sites(old_facts, old);
    if old_sites != sites(new_facts, new) {
        return None;
    }
    // The new variables aligned with the old ones (the old list is the
    // new one with some inserted), then turned around.
    for way in var_ways(new_f, old_f) {
        let mut vars = vec![NOT_VAR; old_f.vars.len()];
        for (j, &i) in way.iter().enumerate() {
            vars[i as usize] = j as u32;
        }
        if let Some(removed) = crate::retract::removed_facts(old, new, &vars) {
            let renaming = MethodRenaming {
                vars,
                sites: old_sites.iter().map(|&(s, _)| (s, s)).collect(),
                calls: (0..old.calls.len() as u32).collect(),
            };
            return Some((renaming, removed));
        }
    }
    None
}

/// Renames the allocations of the edited method `m`'s sites, made again
/// (`Facts::edited` gives them new ids): by (site, class); a site may
/// allocate several objects (`new A[2][3]`), taken in order. `None` when
/// one is gone.
fn rename_allocs(r: &mut Renaming, m: u32, old: &Facts, facts: &Facts) -> Option<()> {
    let mut made: FxHashMap<(u32, &str), Vec<u32>> = FxHashMap::default();
    for &(_, a) in facts.methods[r.method(m) as usize].news.iter().rev() {
        let al = &facts.allocs[a as usize];
        made.entry((al.site, &*al.class)).or_default().push(a);
    }
    for &(_, a) in &old.methods[m as usize].news {
        let al = &old.allocs[a as usize];
        let site = r.site(m, al.site)?;
        r.allocs[a as usize] = made.get_mut(&(site, &*al.class))?.pop()?;
    }
    Some(())
}

/// The ways to align the old variables and sites of an edited method with
/// the new ones, the likeliest first (see [`ways`]); each is only a guess
/// that [`includes`] checks.
fn alignments(
    old_f: &Function,
    new_f: &Function,
    (old_facts, old): (&Facts, &MethodFacts),
    (new_facts, new): (&Facts, &MethodFacts),
) -> Vec<MethodRenaming> {
    let var_ways = var_ways(old_f, new_f);
    let (old_sites, new_sites) = (sites(old_facts, old), sites(new_facts, new));
    let same_site = |i: usize, j: usize| old_sites[i].1 == new_sites[j].1;
    let site_ways = ways(old_sites.len(), new_sites.len(), same_site, same_site);
    let call_at: FxHashMap<u32, u32> = new
        .calls
        .iter()
        .enumerate()
        .map(|(i, c)| (c.site, i as u32))
        .collect();
    let mut out = Vec::new();
    for sw in &site_ways {
        let mut site_map = FxHashMap::default();
        let mut used = FxHashSet::default();
        let consistent = sw.iter().enumerate().all(|(i, &j)| {
            let (o, n) = (old_sites[i].0, new_sites[j as usize].0);
            match site_map.insert(o, n) {
                Some(prev) => prev == n,
                None => used.insert(n),
            }
        });
        if !consistent {
            continue;
        }
        let Some(calls) = old
            .calls
            .iter()
            .map(|c| call_at.get(site_map.get(&c.site)?).copied())
            .collect::<Option<Vec<u32>>>()
        else {
            continue;
        };
        for vars in &var_ways {
            out.push(MethodRenaming {
                vars: vars.clone(),
                sites: site_map.clone(),
                calls: calls.clone(),
            });
        }
    }
    out
}

/// The ways to align the variables of `old_f` with those of `new_f`, which
/// has some inserted (see [`ways`]).
fn var_ways(old_f: &Function, new_f: &Function) -> Vec<Vec<u32>> {
    // A temporary after an inserted statement has moved up by the number
    // of temporaries the statement made: counted from the end, it is the
    // same one.
    let from_end = |f: &Function| -> Vec<u32> {
        let temps = f.vars.iter().filter(|v| v.kind == VarKind::Temp).count() as u32;
        let mut seen = 0;
        f.vars
            .iter()
            .map(|v| {
                seen += u32::from(v.kind == VarKind::Temp);
                temps - seen
            })
            .collect()
    };
    let (old_end, new_end) = (from_end(old_f), from_end(new_f));
    let (ov, nv) = (&old_f.vars, &new_f.vars);
    ways(
        ov.len(),
        nv.len(),
        |i, j| ov[i] == nv[j],
        |i, j| {
            let (a, b) = (&ov[i], &nv[j]);
            a.kind == b.kind
                && a.ty == b.ty
                && a.restrict == b.restrict
                && if a.kind == VarKind::Temp {
                    old_end[i] == new_end[j]
                } else {
                    a.name == b.name
                }
        },
    )
}

/// The ways to map the `n_old` items of an old list to the `n_new` of a new
/// one (for each old item, the index of its new one), the likeliest first.
/// An edit inserts at one place: the old list is a prefix kept in place
/// (`same`) and a suffix moved to the end (`same_at_end`: a number counted
/// from the start has moved there). Where the two overlap (the inserted
/// items look like their neighbours) the split is ambiguous: the longest
/// suffix, then the longest prefix. Last, for edits in several places,
/// each old item the next `same` new one.
fn ways(
    n_old: usize,
    n_new: usize,
    same: impl Fn(usize, usize) -> bool,
    same_at_end: impl Fn(usize, usize) -> bool,
) -> Vec<Vec<u32>> {
    let mut out: Vec<Vec<u32>> = Vec::new();
    if n_new >= n_old {
        let d = n_new - n_old;
        let prefix = (0..n_old).take_while(|&i| same(i, i)).count();
        let suffix = (0..n_old)
            .rev()
            .take_while(|&i| same_at_end(i, i + d))
            .count();
        if prefix + suffix >= n_old {
            for split in [n_old - suffix, prefix] {
                let way: Vec<u32> = (0..n_old)
                    .map(|i| (if i < split { i } else { i + d }) as u32)
                    .collect();
                if !out.contains(&way) {
                    out.push(way);
                }
            }
        }
    }
    let mut j = 0;
    let mut greedy = Vec::with_capacity(n_old);
    for i in 0..n_old {
        while j < n_new && !same(i, j) {
            j += 1;
        }
        if j == n_new {
            return out;
        }
        greedy.push(j as u32);
        j += 1;
    }
    if !out.contains(&greedy) {
        out.push(greedy);
    }
    out
}

/// A method's sites in order, each described by what happens there.
fn sites(facts: &Facts, m: &MethodFacts) -> Vec<(u32, String)> {
    let mut out: Vec<(u32, String)> = m
        .news
        .iter()
        .map(|&(_, a)| {
            let a = &facts.allocs[a as usize];
            (a.site, format!("new {}", a.class))
        })
        .chain(m.calls.iter().map(|c| {
            let d = match c.kind {
                CallKind::Static(t) => format!("static {}", facts.method_names[t as usize]),
                CallKind::Special(t, _) => format!("special {}", facts.method_names[t as usize]),
                CallKind::Virtual(_, s) => format!("virtual {}", facts.sigs[s as usize]),
            };
            (c.site, d)
        }))
        .collect();
    out.sort();
    out
}

/// Whether every fact of the old method, renamed, is a fact of the new one.
fn includes(old: &MethodFacts, new: &MethodFacts, m: u32, r: &Renaming) -> bool {
    let Some(mr) = r.edited.get(&m) else {
        return false;
    };
    let v = |x: u32| mr.vars[x as usize];
    let ov = |x: Option<u32>| x.map(v);
    fn all<T: Hash + Eq + Copy>(old: impl Iterator<Item = T>, new: &[T]) -> bool {
        let new: FxHashSet<T> = new.iter().copied().collect();
        old.into_iter().all(|t| new.contains(&t))
    }
    r.class(old.class) == new.class
        && ov(old.this) == new.this
        && ov(old.ret) == new.ret
        && old
            .params
            .iter()
            .map(|&p| v(p))
            .eq(new.params.iter().copied())
        && all(
            old.news.iter().map(|&(x, a)| (v(x), r.allocs[a as usize])),
            &new.news,
        )
        && all(old.copies.iter().map(|&(a, b)| (v(a), v(b))), &new.copies)
        && all(
            old.loads
                .iter()
                .map(|&(x, y, f)| (v(x), v(y), r.fields[f as usize])),
            &new.loads,
        )
        && all(
            old.stores
                .iter()
                .map(|&(x, f, y)| (v(x), r.fields[f as usize], v(y))),
            &new.stores,
        )
        && all(
            old.sloads
                .iter()
                .map(|&(x, s)| (v(x), r.statics[s as usize])),
            &new.sloads,
        )
        && all(
            old.sstores
                .iter()
                .map(|&(s, y)| (r.statics[s as usize], v(y))),
            &new.sstores,
        )
        && all(
            old.filtered_sloads
                .iter()
                .map(|&(x, s, t)| (v(x), r.statics[s as usize], r.types[t as usize])),
            &new.filtered_sloads,
        )
        && all(
            old.casts
                .iter()
                .map(|c| (v(c.from), v(c.to), r.types[c.ty as usize])),
            &new.casts
                .iter()
                .map(|c| (c.from, c.to, c.ty))
                .collect::<Vec<_>>(),
        )
        && all(old.inits.iter().map(|&m| r.method(m)), &new.inits)
        && old.calls.iter().enumerate().all(|(i, c)| {
            let n = &new.calls[mr.calls[i] as usize];
            let kind = match (c.kind.clone(), n.kind.clone()) {
                (CallKind::Static(a), CallKind::Static(b)) => r.method(a) == b,
                (CallKind::Special(a, x), CallKind::Special(b, y)) => r.method(a) == b && v(x) == y,
                (CallKind::Virtual(x, s), CallKind::Virtual(y, t)) => {
                    v(x) == y && r.sigs[s as usize] == t
                }
                _ => false,
            };
            kind && ov(c.lhs) == n.lhs && c.args.iter().map(|&a| ov(a)).eq(n.args.iter().copied())
        })
}

/// The old solver state in the new ids: methods, classes, objects and
/// contexts renamed, the variables of each reached pair of an edited
/// method given their new numbers (new variables get new nodes), the
/// field and static nodes, the dispatch memo and the call graph's call
/// indices renamed. Pointer nodes and objects keep their ids, so
/// points-to sets and edges are kept as they are. `None` when something
/// the state holds has no new name.
fn rename_state(mut st: State, prev: &Analysis, facts: &Facts, r: &Renaming) -> Option<State> {
    let known = |x: u32| Some(x).filter(|&x| x != NOT_VAR);
    st.ctxs = st.ctxs.renamed(|e| match e {
        Elem::Call(m, s) => Some(Elem::Call(known(r.method(m))?, r.site(m, s)?)),
        Elem::Alloc(a) => Some(Elem::Alloc(known(r.allocs[a as usize])?)),
        Elem::Type(t) => Some(Elem::Type(known(r.class(t))?)),
    })?;
    for o in &mut st.objs {
        o.1 = known(r.allocs[o.1 as usize])?;
    }
    st.obj_index = st
        .objs
        .iter()
        .enumerate()
        .map(|(i, &o)| (o, i as u32))
        .collect();
    for (&m, mr) in &r.edited {
        let nvars = facts.methods[r.method(m) as usize].nvars as usize;
        for &mc in prev.contexts_of(m) {
            let old_nodes: Vec<u32> = (0..mr.vars.len() as u32)
                .map(|v| st.var_node(mc, v))
                .collect();
            let mut map = vec![NOT_VAR; nvars];
            for (v, &n) in old_nodes.iter().enumerate() {
                let nv = mr.vars[v];
                if nv == NOT_VAR {
                    continue; // gone (`retract` unhooked its node)
                }
                map[nv as usize] = n;
                st.node_var[n as usize] = nv;
            }
            for (v, slot) in map.iter_mut().enumerate() {
                if *slot == NOT_VAR {
                    *slot = st.new_node(mc, v as u32);
                }
            }
            st.var_maps.insert(mc, map.into());
        }
    }
    // What keeps its ids (the names a body edit does not touch) is not
    // copied again: these tables are as large as the solution.
    let same = |ids: &[u32]| ids.iter().enumerate().all(|(i, &x)| x == i as u32);
    if !same(&r.fields) {
        st.field_nodes = st
            .field_nodes
            .iter()
            .map(|(&(o, f), &n)| Some(((o, known(r.fields[f as usize])?), n)))
            .collect::<Option<_>>()?;
    }
    let mut statics = vec![NOT_VAR; facts.statics.len()];
    for (s, &n) in st.static_nodes.iter().enumerate() {
        match known(r.statics[s]) {
            Some(ns) => statics[ns as usize] = n,
            // No fact names it any more: only an empty one may go.
            None if st.pt[n as usize].is_empty() => {}
            None => return None,
        }
    }
    for slot in &mut statics {
        if *slot == NOT_VAR {
            *slot = st.new_node(NOT_VAR, 0);
        }
    }
    st.static_nodes = statics;
    if !same(&r.types) {
        for targets in st.filtered.values_mut() {
            for (_, ty) in targets {
                *ty = known(r.types[*ty as usize])?;
            }
        }
        st.filtered_index = st
            .filtered
            .iter()
            .flat_map(|(&s, ts)| ts.iter().map(move |&(t, ty)| (s, t, ty)))
            .collect();
    }
    // The dispatches done give the same methods (the caller checked it
    // when the declarations changed); kept, as later dispatches are
    // checked against them.
    if r.methods.is_some() || r.classes.is_some() || !same(&r.sigs) {
        st.dispatched = st
            .dispatched
            .iter()
            .map(|(&(c, sig), &m)| {
                let c = if c == u32::MAX { c } else { known(r.class(c))? };
                let m = match m {
                    Some(m) => Some(known(r.method(m))?),
                    None => None,
                };
                Some(((c, known(r.sigs[sig as usize])?), m))
            })
            .collect::<Option<_>>()?;
    }
    // Only the calls of edited methods are renumbered.
    if !r.edited.is_empty() {
        let edited = |mc: u32| r.edited.contains_key(&st.reached[mc as usize].method);
        let mut cg = std::mem::take(&mut st.cg);
        for e in cg.iter_mut().filter(|e| edited(e.caller)) {
            let call = r.call(st.reached[e.caller as usize].method, e.call);
            if call != e.call {
                st.cg_index.remove(&(e.caller, e.call, e.callee));
                e.call = call;
            }
        }
        for e in cg.iter().filter(|e| edited(e.caller)) {
            st.cg_index.insert((e.caller, e.call, e.callee));
        }
        st.cg = cg;
        st.library_calls = st
            .library_calls
            .iter()
            .map(|&(mc, call)| (mc, r.call(st.reached[mc as usize].method, call)))
            .collect();
    }
    if r.methods.is_some() {
        for p in &mut st.reached {
            p.method = known(r.method(p.method))?;
        }
        st.reached_index = st
            .reached
            .iter()
            .enumerate()
            .map(|(i, p)| ((p.method, p.ctx), i as u32))
            .collect();
        let mut seen = vec![false; facts.methods.len()];
        for (m, &was) in st.method_seen.iter().enumerate() {
            if was {
                seen[known(r.method(m as u32))? as usize] = true;
            }
        }
        st.method_seen = seen;
        for m in &mut st.to_init {
            *m = known(r.method(*m))?;
        }
    }
    Some(st)
}
