//! Racing configurations (issues 55, 63 and 73): run the surviving candidates over a plan
//! of instances fixed before the race starts, drop a candidate once a test shows it is not
//! a best, and call a survivor equivalent to the best once an interval shows it within a
//! margin, as F-Race (Birattari, Stützle, Paquete and Varrentrapp, GECCO 2002) and irace
//! (López-Ibáñez et al., Operations Research Perspectives 2016) race, with exact
//! signed-rank tests in the closure of "a is a best". [`separation`] says when an instance
//! separates two candidates and what their log ratios are, [`signed_rank`] holds the test
//! and its interval, [`elimination`] the rule that uses them, [`ladder`] the plan,
//! [`capping`] the adaptive cap of slow runs, [`state`] the race as its rows tell it;
//! docs/race.md describes the method and what the synthetic races measured.

pub mod capping;
pub mod elimination;
pub mod ladder;
pub mod separation;
pub mod signed_rank;
pub mod state;

#[cfg(test)]
mod simulate;
