// A small C interface to CaDiCaL's IPASIR-UP external propagator (CaDiCaL >= 1.6), for
// the `cadical-lin` engine (src/engines/cadical_lin.rs). The propagator's callbacks are
// forwarded to C function pointers with a user-data pointer (the Rust propagator); the
// solver is the CaDiCaL library that the rustsat-cadical crate builds and links.
#include "cadical.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" {

// The propagator's callbacks, each with the user data first.
struct pb_callbacks {
  void (*notify_assignment) (void *, const int *, size_t);
  void (*notify_new_decision_level) (void *);
  void (*notify_backtrack) (void *, size_t);
  bool (*check_found_model) (void *, const int *, size_t);
  int (*propagate) (void *);
  int (*add_reason_clause_lit) (void *, int);
  bool (*has_external_clause) (void *, bool *);
  int (*add_external_clause_lit) (void *);
};
}

namespace {

struct Forwarder : CaDiCaL::ExternalPropagator {
  pb_callbacks cb;
  void *data;
  Forwarder (const pb_callbacks &c, void *d) : cb (c), data (d) {
    is_lazy = false;
    are_reasons_forgettable = true;
  }
  void notify_assignment (const std::vector<int> &lits) override {
    cb.notify_assignment (data, lits.data (), lits.size ());
  }
  void notify_new_decision_level () override {
    cb.notify_new_decision_level (data);
  }
  void notify_backtrack (size_t new_level) override {
    cb.notify_backtrack (data, new_level);
  }
  bool cb_check_found_model (const std::vector<int> &model) override {
    return cb.check_found_model (data, model.data (), model.size ());
  }
  int cb_propagate () override { return cb.propagate (data); }
  int cb_add_reason_clause_lit (int lit) override {
    return cb.add_reason_clause_lit (data, lit);
  }
  bool cb_has_external_clause (bool &is_forgettable) override {
    return cb.has_external_clause (data, &is_forgettable);
  }
  int cb_add_external_clause_lit () override {
    return cb.add_external_clause_lit (data);
  }
};

struct Stopper : CaDiCaL::Terminator {
  bool (*stop) (void *);
  void *data;
  Stopper (bool (*s) (void *), void *d) : stop (s), data (d) {}
  bool terminate () override { return stop (data); }
};

struct Shim {
  CaDiCaL::Solver solver;
  Forwarder *propagator = nullptr;
  Stopper *stopper = nullptr;
  ~Shim () {
    if (propagator) {
      solver.disconnect_external_propagator ();
      delete propagator;
    }
    if (stopper) {
      solver.disconnect_terminator ();
      delete stopper;
    }
  }
};

} // namespace

extern "C" {

void *pb_new () { return new Shim (); }

void pb_delete (void *s) { delete static_cast<Shim *> (s); }

const char *pb_signature () { return CaDiCaL::Solver::signature (); }

bool pb_set_option (void *s, const char *name, int value) {
  return static_cast<Shim *> (s)->solver.set (name, value);
}

void pb_add (void *s, int lit) { static_cast<Shim *> (s)->solver.add (lit); }

void pb_connect (void *s, const pb_callbacks *cb, void *data) {
  Shim *shim = static_cast<Shim *> (s);
  shim->propagator = new Forwarder (*cb, data);
  shim->solver.connect_external_propagator (shim->propagator);
}

void pb_observe (void *s, int var) {
  static_cast<Shim *> (s)->solver.add_observed_var (var);
}

void pb_connect_terminator (void *s, bool (*stop) (void *), void *data) {
  Shim *shim = static_cast<Shim *> (s);
  shim->stopper = new Stopper (stop, data);
  shim->solver.connect_terminator (shim->stopper);
}

int pb_solve (void *s) { return static_cast<Shim *> (s)->solver.solve (); }

int pb_val (void *s, int lit) {
  return static_cast<Shim *> (s)->solver.val (lit);
}

int64_t pb_statistic (void *s, const char *name) {
  return static_cast<Shim *> (s)->solver.get_statistic_value (name);
}
}
