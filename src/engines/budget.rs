//! The one time budget of a run. It starts when the run starts (before the model is
//! built) and every part of the run draws on it: the LP relaxation, each round of row
//! generation, each node, LP and probe of a search, and each counting solve. Engines give
//! their solver what is [`Budget::left`] at the moment they call it, so no part can spend
//! time another part already used, and the runner's hard kill follows from the same limit.
//!
//! A run's budget also carries its [`Timeline`]: engines report each incumbent and bound
//! through [`Budget::incumbent`] and [`Budget::bound`] as their search goes, on the
//! budget's clock.

use crate::model::Sense;
use crate::timeline::{Sink, Timeline, Trace};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A wall-clock budget: a start and an optional limit in seconds, and the run's timeline
/// where one is recorded.
#[derive(Clone, Debug)]
pub struct Budget {
    start: Instant,
    limit: Option<f64>,
    timeline: Option<Arc<Timeline>>,
    /// Incumbents found under this budget are not solutions of the whole problem (a round
    /// of row generation solves a model without the rows still to come): only their
    /// bounds are recorded.
    relaxed: bool,
}

impl Budget {
    /// A budget of `limit` seconds (`None`: no limit) from now, recording no timeline.
    pub fn new(limit: Option<f64>) -> Budget {
        Budget {
            start: Instant::now(),
            limit,
            timeline: None,
            relaxed: false,
        }
    }

    /// A budget of `limit` seconds from now that records the run's timeline, streaming it
    /// to `sink` when given.
    pub fn recording(limit: Option<f64>, sink: Option<Sink>) -> Budget {
        let start = Instant::now();
        Budget {
            start,
            limit,
            timeline: Some(Arc::new(Timeline::new(start, sink))),
            relaxed: false,
        }
    }

    /// The same budget for a solve whose incumbents are not solutions of the whole problem
    /// (a round of row generation): its bounds are still recorded.
    pub fn relaxed(&self) -> Budget {
        Budget {
            relaxed: true,
            ..self.clone()
        }
    }

    /// The same budget recording nothing (the LP relaxation solved for the `lp_bound`
    /// column, which is no part of the engine's search).
    pub fn unrecorded(&self) -> Budget {
        Budget {
            timeline: None,
            ..self.clone()
        }
    }

    /// True when a timeline is recorded and incumbents count: engines whose reporting
    /// costs something check this first.
    pub fn records(&self) -> bool {
        self.timeline.is_some()
    }

    /// Sets the sense of the objective, by which improvements are told.
    pub fn set_sense(&self, sense: Sense) {
        if let Some(t) = &self.timeline {
            t.set_sense(sense);
        }
    }

    /// Reports an incumbent's objective (kept when it improves; ignored in a relaxed
    /// solve).
    pub fn incumbent(&self, objective: f64) {
        self.record_at(true, objective, Instant::now());
    }

    /// Reports a proven bound on the objective (kept when it improves).
    pub fn bound(&self, bound: f64) {
        self.record_at(false, bound, Instant::now());
    }

    /// Records what a solve ended with: its objective as an incumbent where it holds a
    /// solution, and its bound (each kept where it improves on what was reported).
    pub fn record_outcome(&self, outcome: &super::Outcome) {
        if outcome.values.is_some() {
            if let Some(z) = outcome.objective {
                self.incumbent(z);
            }
        }
        if let Some(b) = outcome.best_bound {
            self.bound(b);
        }
    }

    /// As [`Budget::incumbent`] and [`Budget::bound`] (`incumbent` false), for a figure
    /// that came at `at`: a solver's log line or driver message, stamped when it arrived.
    pub fn record_at(&self, incumbent: bool, value: f64, at: Instant) {
        if let Some(t) = self
            .timeline
            .as_ref()
            .filter(|_| !(incumbent && self.relaxed))
        {
            t.record_at(incumbent, value, at);
        }
    }

    /// Marks the end of the run on its timeline (see [`Timeline::finish`]).
    pub fn finish(&self) {
        if let Some(t) = &self.timeline {
            t.finish();
        }
    }

    /// The timeline recorded so far, where one is recorded.
    pub fn trace(&self) -> Option<Trace> {
        self.timeline.as_ref().map(|t| t.trace())
    }

    /// A budget without limit.
    pub fn unlimited() -> Budget {
        Budget::new(None)
    }

    /// The limit in seconds, as given.
    pub fn limit(&self) -> Option<f64> {
        self.limit
    }

    /// Seconds since the budget started.
    pub fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    /// Seconds left (never below 0), or `None` without limit.
    pub fn left(&self) -> Option<f64> {
        self.limit.map(|l| (l - self.elapsed()).max(0.0))
    }

    /// True once the limit has passed.
    pub fn expired(&self) -> bool {
        self.limit.is_some_and(|l| self.elapsed() >= l)
    }

    /// The instant the limit passes, or `None` without limit.
    pub fn deadline(&self) -> Option<Instant> {
        self.limit
            .map(|l| self.start + Duration::from_secs_f64(l.clamp(0.0, 1e9)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_runs_down() {
        let b = Budget::new(Some(0.05));
        assert!(!b.expired());
        assert!(b.left().unwrap() <= 0.05);
        std::thread::sleep(Duration::from_millis(60));
        assert!(b.expired());
        assert_eq!(b.left(), Some(0.0));
        assert!(b.deadline().unwrap() <= Instant::now());
        let u = Budget::unlimited();
        assert!(!u.expired() && u.left().is_none() && u.deadline().is_none());
    }
}
