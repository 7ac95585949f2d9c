//! Live figures of the solve in progress, for the progress line of `puzzlebench solve`.
//!
//! Engines that can say how their search stands (HiGHS through its MIP callback, the
//! project's branch and cut at each node) report their incumbent, bound and node count
//! here while [`watching`] is on; `solve` turns it on and shows the figures on standard
//! error once a solve has run for a second. Sweeps leave it off, so no engine pays for a
//! callback there. One solve runs at a time in a process (sweeps run each in a worker of
//! its own), so the figures are process-wide.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

static WATCHING: AtomicBool = AtomicBool::new(false);
static INCUMBENT: AtomicU64 = AtomicU64::new(NONE);
static BOUND: AtomicU64 = AtomicU64::new(NONE);
static NODES: AtomicU64 = AtomicU64::new(u64::MAX);

/// The bits of a NaN that stand for "not known".
const NONE: u64 = 0x7ff8_0000_0000_0dad;

/// How the search stands, as far as the engine said.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Live {
    /// Objective of the best solution found so far.
    pub incumbent: Option<f64>,
    /// Best proven bound on the objective.
    pub bound: Option<f64>,
    /// Nodes searched.
    pub nodes: Option<u64>,
}

/// Turns reporting on or off and forgets the figures of the solve before.
pub fn watch(on: bool) {
    WATCHING.store(on, Ordering::Relaxed);
    INCUMBENT.store(NONE, Ordering::Relaxed);
    BOUND.store(NONE, Ordering::Relaxed);
    NODES.store(u64::MAX, Ordering::Relaxed);
}

/// True while someone watches: engines report only then.
pub fn watching() -> bool {
    WATCHING.load(Ordering::Relaxed)
}

/// The engine's incumbent, bound and node count as of now (each where known and finite).
pub fn report(incumbent: Option<f64>, bound: Option<f64>, nodes: Option<u64>) {
    let store = |cell: &AtomicU64, x: Option<f64>| {
        if let Some(x) = x.filter(|x| x.is_finite()) {
            cell.store(x.to_bits(), Ordering::Relaxed);
        }
    };
    store(&INCUMBENT, incumbent);
    store(&BOUND, bound);
    if let Some(n) = nodes {
        NODES.store(n, Ordering::Relaxed);
    }
}

/// The figures reported since [`watch`].
pub fn live() -> Live {
    let get = |cell: &AtomicU64| {
        let bits = cell.load(Ordering::Relaxed);
        (bits != NONE).then(|| f64::from_bits(bits))
    };
    let nodes = NODES.load(Ordering::Relaxed);
    Live {
        incumbent: get(&INCUMBENT),
        bound: get(&BOUND),
        nodes: (nodes != u64::MAX).then_some(nodes),
    }
}

impl Live {
    /// The figures as text for a progress line: "incumbent 5, bound 3, 120 nodes", or
    /// empty when the engine said nothing.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(x) = self.incumbent {
            parts.push(format!("incumbent {x}"));
        }
        if let Some(b) = self.bound {
            parts.push(format!("bound {}", (b * 1e6).round() / 1e6));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("{n} nodes"));
        }
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The process-wide figures are tested in tests/engines.rs, where no other test runs
    // an engine at the same time.
    #[test]
    fn figures_are_described_as_far_as_known() {
        assert_eq!(Live::default().describe(), "");
        let l = Live {
            incumbent: Some(4.0),
            bound: Some(2.0 / 3.0),
            nodes: Some(7),
        };
        assert_eq!(l.describe(), "incumbent 4, bound 0.666667, 7 nodes");
    }
}
