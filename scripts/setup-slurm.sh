#!/usr/bin/env bash
# Brings up a real single-node SLURM cluster on this machine, for the project's SLURM test
# and for trying the sbatch scripts locally: installs the Debian packages when missing
# (slurm-wlm 22.05, slurmctld, slurmd, slurm-client, munge, through install-missing.sh),
# writes /etc/slurm/slurm.conf for one node (this host's `hostname -s`, on 127.0.0.1, its
# CPUs and most of its memory, partition `debug`), makes a munge key when there is none,
# and starts munged, slurmctld and slurmd directly (no systemd here), as root, listening
# and talking on loopback only. It waits (60 s at most) until the node is idle and prints
# one line. Run it again any time: when SLURM already answers with this config it does
# nothing; when a daemon has died it starts that one again.
#
#   scripts/setup-slurm.sh          # bring up (or check) the cluster
#   scripts/setup-slurm.sh --stop   # kill slurmd, slurmctld and munged (by their pid files)
#
# Logs: /var/log/slurm/slurmctld.log and slurmd.log, /var/log/munge/munged.log; the
# install's output in /var/log/slurm/setup-install.log. On any failure it exits 1 with one
# line on stderr saying what failed and why (a test prints it as its reason to skip).
# No accounting database: sacct says "Slurm accounting storage is disabled"; poll squeue
# (`squeue -j JOBID -h` prints nothing once every task of an array job is finished; after
# MinJobAge it also exits 1 with "Invalid job id specified") and the jobs' output files.
# A requeued batch job is held back by slurmctld for cred_expire + 1 s before it may start
# again; AuthInfo=cred_expire=10 below makes that ~11-12 s instead of the default's 121 s.
# Forcing it sooner (`scontrol update jobid=J_T starttime=now`) is unsafe: a relaunch in
# the same second as the kill is refused by slurmd ("already killed") and the task ends
# FAILED, not requeued.
set -Eeuo pipefail
cd "$(dirname "$0")/.."
ME=setup-slurm.sh
NODE=$(hostname -s)
CONF=/etc/slurm/slurm.conf
LOGDIR=/var/log/slurm
RUNDIR=/run/slurm
PARTITION=debug

die() { echo "$ME: $*" >&2; exit 1; }
trap 'die "failed at line $LINENO: $BASH_COMMAND"' ERR
# The last lines of a log, on one line.
lastlines() { tail -n "${2:-4}" "$1" 2>/dev/null | tr -s '\n' '|' | sed 's/|$//; s/|/ | /g' || true; }
# The pid in pid file $2 when that process is alive and is named $1.
pid_of() {
  local p
  p=$(cat "$2" 2>/dev/null) || return 1
  [ -n "$p" ] && [ "$(ps -p "$p" -o comm= 2>/dev/null)" = "$1" ] && echo "$p"
}
# Sends SIGTERM to daemon $1 (pid file $2), then SIGKILL if it is still there after 15 s.
stop_daemon() {
  local p
  p=$(pid_of "$1" "$2") || return 0
  kill "$p" 2>/dev/null || true
  for _ in $(seq 150); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$p" 2>/dev/null || true
  rm -f "$2"
  echo "$ME: stopped $1 (pid $p)"
}
node_state() { timeout 5 sinfo -h -n "$NODE" -o %T 2>/dev/null | head -n 1 || true; }
munge_works() { munge -n 2>/dev/null | unmunge >/dev/null 2>&1; }
ctld_up() { timeout 5 scontrol ping 2>/dev/null | grep -q 'is UP'; }
# Up: the three daemons alive and answering, the node usable. (slurmctld alone would go on
# calling the node idle for SlurmdTimeout, 300 s, after slurmd died.)
slurm_up() {
  command -v scontrol >/dev/null 2>&1 || return 1
  pid_of slurmd "$RUNDIR/slurmd.pid" >/dev/null && pid_of slurmctld "$RUNDIR/slurmctld.pid" >/dev/null || return 1
  munge_works && ctld_up || return 1
  case $(node_state) in idle | mixed | allocated | completing) return 0 ;; esac
  return 1
}

# The slurm.conf this script writes: one node, this host, on loopback.
CPUS=$(nproc)
MEM_MB=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
REAL_MB=$((MEM_MB * 9 / 10)) # leave a tenth for the system and the daemons
make_conf() {
  cat <<EOF
# Written by puzzlebench's scripts/setup-slurm.sh: a single-node test cluster on loopback.
# SlurmUser=root is fine for a local test cluster (no slurm user to set up); do not use
# this file on a real cluster.
ClusterName=puzzlebench
SlurmctldHost=$NODE(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=6817
SlurmdPort=6818
AuthType=auth/munge
CredType=cred/munge
# A requeued batch job may start again only cred_expire + 1 s after the requeue
# (default 120 s); 10 s keeps requeue tests short.
AuthInfo=cred_expire=10
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=$RUNDIR/slurmctld.pid
SlurmdPidFile=$RUNDIR/slurmd.pid
SlurmctldLogFile=$LOGDIR/slurmctld.log
SlurmdLogFile=$LOGDIR/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
# Plugins that need neither systemd nor delegated cgroups (this runs in containers).
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
# Scheduling passes every 2 s (defaults: main 60 s, backfill 30 s). A job whose BeginTime
# passes (a requeued one) changes nothing that wakes the schedulers, so without this it
# waits for the next periodic pass (up to 60 s) or for another job to end.
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=2,bf_interval=2
# Allocate single CPUs, so that two 1-CPU tasks run at once on 2 CPUs.
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
# A node that was down comes back by itself once slurmd registers with a valid config.
ReturnToService=2
JobRequeue=1
# Seconds between SIGTERM and SIGKILL when a job is cancelled or requeued.
KillWait=5
# Finished jobs are forgotten (scontrol show job) after 60 s.
MinJobAge=60
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$REAL_MB State=UNKNOWN
PartitionName=$PARTITION Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
}

if [ "${1:-}" = "--stop" ]; then
  [ "$(id -u)" -eq 0 ] || exec sudo -n bash "$0" "$@"
  stop_daemon slurmd "$RUNDIR/slurmd.pid"
  stop_daemon slurmctld "$RUNDIR/slurmctld.pid"
  stop_daemon munged /run/munge/munged.pid
  exit 0
fi
[ $# -eq 0 ] || die "unknown argument '$1' (use no argument, or --stop)"

# Up, and with this script's config: nothing to do.
if slurm_up && [ "$(cat "$CONF" 2>/dev/null)" = "$(make_conf)" ]; then
  echo "$ME: SLURM already up: node $NODE $(node_state) in partition $PARTITION"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  sudo -n true 2>/dev/null || die "SLURM is not up and starting it needs root (or sudo without a password)"
  exec sudo -n bash "$0" "$@"
fi

# --- packages -------------------------------------------------------------------------
mkdir -p "$LOGDIR"
bash scripts/install-missing.sh slurm-wlm slurmctld slurmd slurm-client munge \
    > "$LOGDIR/setup-install.log" 2>&1 ||
  die "installing the SLURM packages failed: $(lastlines "$LOGDIR/setup-install.log")"

# --- munge: key, directories with the owners and modes munged insists on, daemon -------
mkdir -p /etc/munge /var/lib/munge /var/log/munge /run/munge
chown munge:munge /etc/munge /var/lib/munge /var/log/munge /run/munge
chmod 0700 /etc/munge /var/lib/munge /var/log/munge
chmod 0755 /run/munge
if [ ! -s /etc/munge/munge.key ]; then
  if command -v mungekey >/dev/null 2>&1; then
    mungekey --create --keyfile=/etc/munge/munge.key 2>/dev/null ||
      die "mungekey could not make /etc/munge/munge.key"
  else
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
  fi
fi
chown munge:munge /etc/munge/munge.key
chmod 0400 /etc/munge/munge.key
if ! munge_works; then
  stop_daemon munged /run/munge/munged.pid > /dev/null # a stale one that does not answer
  out=$(runuser -u munge -- /usr/sbin/munged 2>&1) ||
    die "munged did not start: $out $(lastlines /var/log/munge/munged.log 2)"
  for _ in $(seq 50); do munge_works && break; sleep 0.2; done
  munge_works || die "munged does not answer ('munge -n | unmunge' fails): $(lastlines /var/log/munge/munged.log)"
fi

# --- slurm.conf -------------------------------------------------------------------------
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd "$RUNDIR"
if [ "$(cat "$CONF" 2>/dev/null)" != "$(make_conf)" ]; then
  if [ -e "$CONF" ] && ! grep -q "setup-slurm.sh" "$CONF"; then
    cp "$CONF" "$CONF.bak.$(date +%s)" # someone else's config: keep it
  fi
  # The daemons read the config when they start: stop those running with another one
  # (jobs survive: slurmctld keeps their state, slurmstepd goes on running them).
  stop_daemon slurmd "$RUNDIR/slurmd.pid" > /dev/null
  stop_daemon slurmctld "$RUNDIR/slurmctld.pid" > /dev/null
  make_conf > "$CONF"
  chmod 0644 "$CONF"
fi

# --- slurmctld, then slurmd ---------------------------------------------------------------
# Both fork into the background at once and die later on most errors (port in use, bad
# config), which only their logs tell: so watch the pid file too while waiting.
# start_daemon NAME: starts it unless it runs; alive NAME: dies when it is gone (after a
# 2 s grace for the pid file to appear).
start_daemon() {
  pid_of "$1" "$RUNDIR/$1.pid" > /dev/null && return 0
  rm -f "$RUNDIR/$1.pid"
  out=$("$1" 2>&1) || die "$1 did not start: $out $(lastlines "$LOGDIR/$1.log")"
  started=$SECONDS
}
alive() {
  pid_of "$1" "$RUNDIR/$1.pid" > /dev/null || [ $SECONDS -lt $((started + 2)) ] ||
    die "$1 did not start or died: $(lastlines "$LOGDIR/$1.log")"
}
started=0
start_daemon slurmctld
deadline=$((SECONDS + 30))
until ctld_up; do
  alive slurmctld
  [ $SECONDS -lt $deadline ] ||
    die "slurmctld does not answer 'scontrol ping' after 30 s: $(lastlines "$LOGDIR/slurmctld.log")"
  sleep 0.5
done
start_daemon slurmd

# --- wait until the node is idle (resume it if it came up down or drained) -------------
deadline=$((SECONDS + 60))
while :; do
  state=$(node_state)
  case $state in
    idle | mixed | allocated | completing) break ;;
    down | drain* | fail*) scontrol update nodename="$NODE" state=resume 2>/dev/null || true ;;
    inval*) die "node $NODE is invalid (config does not match the machine): $(sinfo -h -n "$NODE" -o %E) $(lastlines "$LOGDIR/slurmctld.log" 2)" ;;
  esac
  alive slurmd
  [ $SECONDS -lt $deadline ] ||
    die "node $NODE is '${state:-unknown}' after 60 s, not idle (reason: $(sinfo -h -n "$NODE" -o %E 2>/dev/null)); slurmd log: $(lastlines "$LOGDIR/slurmd.log")"
  sleep 1
done
echo "$ME: SLURM up: node $NODE ($CPUS CPUs, ${REAL_MB} MB) $state in partition $PARTITION on 127.0.0.1; logs in $LOGDIR; stop with scripts/setup-slurm.sh --stop"
