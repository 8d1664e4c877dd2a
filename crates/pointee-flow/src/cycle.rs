//! Large recursive cycles: one context per function while the cycle is open.
//!
//! A recursive-descent parser has dozens of functions calling each other
//! (statement, expression, block, ...). Solved with a context per distinct
//! input, every iteration of the cycle's fixed point explores every input
//! the iteration produces, and the inputs change with each iteration: a
//! 40-function cycle took minutes. Inside a strongly connected component of
//! the call graph with more than `Settings::cycle_merge_size` functions,
//! once a frame of the component is on the stack (the outermost one is the
//! cycle's *head*), every call to a function of the component goes to that
//! function's one *node* of the cycle, analysed with the merge of every
//! input it was called with (its unit is marked `in_cycle`). This is the
//! context-insensitive treatment of the cycle's inside, as in the
//! strongly-connected-component summaries of Wilson and Lam; calls into the
//! cycle from outside keep their own contexts.
//!
//! The nodes persist across the head's iterations and are analysed again
//! only when something they read changed (a worklist in the style of a
//! demand-driven verification): a node records the version of every node
//! result it read (merged nodes, and approximate nodes on the stack); when
//! it is called in a later pass it first brings those up to date, and is
//! analysed again only if its input grew or one of them changed. A node
//! whose result grows makes the head iterate, so that what read the old
//! result is checked again; the head stops when an iteration changes no
//! node and its own result is stable. Then every node's last analysis saw
//! the final results of what it read, and replaying its body (queries)
//! gives the same facts.

use crate::facts::{merge_state, Facts, State};
use crate::solver::{Engine, UnitId};
use std::sync::Arc;

/// The node of one function merged in an open large cycle.
pub(crate) struct CycleNode {
    pub unit: UnitId,
    /// The merge of every input it was called with.
    pub input: Arc<Facts>,
    /// The input of its last analysis.
    pub analysed: Option<Arc<Facts>>,
    /// The merge of every result of its analyses.
    pub output: State,
    /// Counts the changes of `output`.
    pub version: u32,
    /// What its last analysis read: (function, version).
    pub reads: Vec<(u32, u32)>,
    /// The pass of the head in which it was last brought up to date.
    pub verified: u32,
    /// The stack depth of the cycle's head.
    pub owner: usize,
}

impl Engine<'_> {
    /// The cycle a call to `f` joins as a merged node: the outermost frame
    /// of a function on a cycle of the call graph, when `f` is on a cycle
    /// too, unless `f` belongs to that frame's own strongly connected
    /// component and it is small (at most `Settings::cycle_merge_size`
    /// functions: that recursion keeps a context per input). A recursion
    /// solved inside another one's fixed point would be solved again for
    /// every input each iteration of the outer one produces.
    pub(crate) fn cycle_head(&self, f: u32) -> Option<usize> {
        if !self.cyclic[f as usize] {
            return None;
        }
        let h = self
            .stack
            .iter()
            .position(|fr| self.cyclic[fr.func as usize])?;
        let c = self.scc[f as usize];
        let small = self.scc_size[c as usize] as usize <= self.settings.cycle_merge_size;
        if small && self.scc[self.stack[h].func as usize] == c {
            // The outermost recursion itself keeps a context per input.
            return None;
        }
        Some(h)
    }

    /// A call to `f` inside the large open cycle whose head is at depth
    /// `h` (and `f` is not on the stack: that is an approximate node).
    pub(crate) fn invoke_merged(
        &mut self,
        f: u32,
        input: Arc<Facts>,
        h: usize,
    ) -> Option<(State, UnitId, bool)> {
        // The head iterates until the nodes are stable.
        self.stack[h].recursive = true;
        let head = self.stack[h].unit;
        self.units[head as usize].recursive = true;
        let pass = self.stack[h].pass;
        match self.cycle.get_mut(&f) {
            Some(node) => {
                if !input.leq(&node.input) {
                    node.input = Arc::new(Facts::merge(&node.input, &input));
                    if node.verified == pass {
                        // Analysed in this pass already: once per pass, the
                        // next one takes the larger input.
                        self.stack[h].changed = true;
                        return Some(self.read_node(f, input, h));
                    }
                }
            }
            // Past the budget a new node is not made (`budget.rs`).
            None if self.exhausted.is_some() => return None,
            None => {
                let u = self.new_unit(f, input.clone(), false, true);
                self.per_func[f as usize] += 1;
                let node = CycleNode {
                    unit: u,
                    input: input.clone(),
                    analysed: None,
                    output: None,
                    version: 0,
                    reads: Vec::new(),
                    verified: u32::MAX,
                    owner: h,
                };
                self.cycle.insert(f, node);
            }
        }
        self.bring_up_to_date(f);
        Some(self.read_node(f, input, h))
    }

    /// The result of node `f` for a call with `input`, recorded as read.
    fn read_node(&mut self, f: u32, input: Arc<Facts>, h: usize) -> (State, UnitId, bool) {
        let node = &self.cycle[&f];
        let (u, output, version) = (node.unit, node.output.clone(), node.version);
        let top = self.stack.last_mut().unwrap();
        top.min_dep = top.min_dep.min(h);
        top.reads.push((f, version));
        // Replays find the node by this call's input.
        let caller = top.unit;
        self.units[caller as usize].approx.push((f, input, u));
        (output, u, false)
    }

    /// Brings node `f` up to date in the current pass: what it read first,
    /// then `f` itself is analysed again if its input grew or something it
    /// read changed.
    fn bring_up_to_date(&mut self, f: u32) {
        let node = self.cycle.get_mut(&f).unwrap();
        let pass = self.stack[node.owner].pass;
        if node.verified == pass {
            return;
        }
        // Marked first: a node reached again while being checked counts
        // with the result it has.
        node.verified = pass;
        let mut stale = node.analysed.as_ref() != Some(&node.input);
        let owner = node.owner;
        let reads = node.reads.clone();
        for (g, v) in reads {
            if stale {
                break;
            }
            stale = self.read_version(g) != Some(v);
        }
        if stale && self.exhausted.is_some() && self.replay.is_none() {
            // Past the budget a node is not analysed again: the cycle is
            // given up when its head's pass ends (`budget.rs`), and what
            // reads the stale result meanwhile is provisional under it.
            self.stack[owner].given_up = true;
        } else if stale {
            self.analyse_node(f);
        }
    }

    /// The current version of what a node read: a node on the stack (being
    /// analysed: its stored result), or a merged node brought up to date.
    fn read_version(&mut self, g: u32) -> Option<u32> {
        if let Some(fr) = self.stack.iter().rev().find(|fr| fr.func == g) {
            return Some(match self.cycle.get(&g) {
                Some(n) if fr.merged => n.version,
                _ => fr.version,
            });
        }
        if self.cycle.contains_key(&g) {
            self.bring_up_to_date(g);
            return Some(self.cycle[&g].version);
        }
        None
    }

    /// One analysis of node `f` with its input; the result joins the
    /// node's, and a change makes the cycle's head iterate again.
    fn analyse_node(&mut self, f: u32) {
        let node = &self.cycle[&f];
        let (u, input, output, h) = (
            node.unit,
            node.input.clone(),
            node.output.clone(),
            node.owner,
        );
        let mut frame = self.frame(f, u, input.clone(), output);
        frame.merged = true;
        frame.min_dep = h;
        self.stack.push(frame);
        self.units[u as usize].calls.clear();
        self.units[u as usize].approx.clear();
        let out = self.analyze_body(f, &input);
        let mut fr = self.stack.pop().unwrap();
        let end = self.units.len() as UnitId;
        // Approximate nodes of `f` itself below it grew its input.
        let mut new_input = (*input).clone();
        for p in fr.pending.drain(..) {
            new_input = Facts::merge(&new_input, &p);
        }
        let node = self.cycle.get_mut(&f).unwrap();
        if new_input != *node.input {
            node.input = Arc::new(Facts::merge(&node.input, &new_input));
        }
        let new_out = merge_state(node.output.clone(), &out);
        let changed = new_out != node.output || *node.input != *input;
        if new_out != node.output {
            node.version += 1;
        }
        node.output = new_out.clone();
        node.analysed = Some(input.clone());
        node.reads = std::mem::take(&mut fr.reads);
        if changed {
            self.stack[h].changed = true;
        }
        let unit = &mut self.units[u as usize];
        unit.input = input;
        unit.output = new_out;
        unit.wild |= fr.wild;
        unit.escaped |= fr.escaped;
        unit.wrote_symbolic |= fr.wrote_symbolic;
        // Everything every analysis used shaped the result.
        let t = &mut unit.trace;
        t.deps.append(&mut fr.deps);
        t.deps.sort_unstable();
        t.deps.dedup();
        t.exits.append(&mut fr.exits);
        t.exits.sort();
        t.exits.dedup();
        t.funcs.append(&mut fr.funcs);
        t.funcs.sort_unstable();
        t.funcs.dedup();
        t.end = end;
        t.standalone = false;
        let parent = self.stack.last_mut().unwrap();
        parent.min_dep = parent.min_dep.min(h);
        parent.prov.append(&mut fr.prov);
    }

    /// The head at `depth` was given up (`budget.rs`): its merged nodes are
    /// dropped; returns their units.
    pub(crate) fn drop_cycle(&mut self, depth: usize) -> Vec<UnitId> {
        self.take_nodes_from(depth)
            .into_iter()
            .map(|(_, n)| n.unit)
            .collect()
    }

    /// Removes the merged nodes of the cycles whose head is at `depth` or
    /// deeper.
    fn take_nodes_from(&mut self, depth: usize) -> Vec<(u32, CycleNode)> {
        let done: Vec<u32> = self
            .cycle
            .iter()
            .filter(|(_, n)| n.owner >= depth)
            .map(|(&f, _)| f)
            .collect();
        done.into_iter()
            .map(|f| (f, self.cycle.remove(&f).unwrap()))
            .collect()
    }

    /// The head at `depth` closed: its merged nodes are final.
    pub(crate) fn close_cycle(&mut self, depth: usize) {
        if self.cycle.is_empty() {
            return;
        }
        for (f, n) in self.take_nodes_from(depth) {
            if let Some(input) = n.analysed {
                self.memo.entry((f, input)).or_insert(n.unit);
            }
        }
    }
}
