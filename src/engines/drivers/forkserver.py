"""puzzlebench's fork server (src/engines/external.rs): starts a Python driver warm.

Run as `python -I -c <this> <idle seconds> <driver source>` with standard input the
listening Unix socket its starter bound. It imports once every module the driver imports
(the drivers' protocol module puzzlebench_driver is registered ahead of this source, as
ahead of each driver's: src/engines/driver_source.rs), prints {"kind": "ready", ...} on
standard output, and then serves connections, one per driver process:

1. the client sends one line of JSON, {"argv": [...]}, with three descriptors
   (SCM_RIGHTS): the driver's standard input, output and error (the client's pipes);
2. the server forks a child and sends {"pid": ...} back (or {"error": ...});
3. the child waits for the client's line "go" (sent once the client has moved it into
   its own cgroups and onto its CPUs; anything else, or the connection's end, and the
   child exits), makes those descriptors its 0, 1 and 2, leads a process group of its
   own, and runs the driver's code as `__main__` with sys.argv ["-c", *argv], as
   `python -I -c <driver> <argv>` would, save that the imports are already done.

Children are reaped by the kernel (SIGCHLD ignored). The server ends when no connection
came for the idle seconds, or when the process that started it has ended (its parent
changed), removing its socket and, when empty, the socket's folder.
"""
import ast
import builtins
import importlib
import json
import os
import select
import signal
import socket
import sys
import time


def preload(tree):
    """Imports every module `tree` imports (absolute imports); the names of those that
    failed (the driver reports its own import failure when it runs)."""
    failed = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            try:
                importlib.import_module(name)
            except ImportError:
                # `from m import f` names a function as often as a submodule.
                if not (isinstance(node, ast.ImportFrom) and name != node.module):
                    failed.append(name)
            except Exception as e:  # a module that fails to import warm fails cold too
                failed.append(f"{name} ({type(e).__name__})")
    return failed


def request(conn):
    """The client's request: its JSON and the three descriptors."""
    data, fds, _, _ = socket.recv_fds(conn, 1 << 16, 3)
    while data and not data.endswith(b"\n"):
        more = conn.recv(1 << 16)
        if not more:
            break
        data += more
    if len(fds) != 3:
        for fd in fds:
            os.close(fd)
        raise ValueError("a request carries three descriptors")
    return json.loads(data), fds


def child(conn, listener, fds, job, code):
    """The driver process: never returns."""
    status = 1
    try:
        listener.close()
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.setpgid(0, 0)
        go = conn.makefile("rb").readline()
        conn.close()
        if go.strip() != b"go":
            os._exit(1)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        sys.argv = ["-c"] + [str(a) for a in job.get("argv", [])]
        status = 0
        exec(code, {"__name__": "__main__", "__builtins__": builtins})
    except SystemExit as e:
        if e.code is None:
            status = 0
        elif isinstance(e.code, int):
            status = e.code
        else:
            print(e.code, file=sys.stderr)
            status = 1
    except BaseException:
        import traceback
        traceback.print_exc()
        status = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:
                pass
        os._exit(status)


def serve(listener, idle, code):
    owner = os.getppid()
    last = time.monotonic()
    while True:
        ready, _, _ = select.select([listener], [], [], 1.0)
        if os.getppid() != owner:
            return
        if not ready:
            if time.monotonic() - last > idle:
                return
            continue
        try:
            conn, _ = listener.accept()
        except OSError:
            continue
        last = time.monotonic()
        try:
            job, fds = request(conn)
        except Exception as e:
            try:
                conn.sendall((json.dumps({"error": f"bad request: {e}"}) + "\n").encode())
            except OSError:
                pass
            conn.close()
            continue
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            child(conn, listener, fds, job, code)
        for fd in fds:
            os.close(fd)
        try:
            conn.sendall((json.dumps({"pid": pid}) + "\n").encode())
        except OSError:
            pass
        conn.close()


def main():
    idle = float(sys.argv[1])
    source = sys.argv[2]
    listener = socket.socket(fileno=os.dup(0))
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    path = listener.getsockname()
    try:
        tree = ast.parse(source)
        code = compile(tree, "<string>", "exec")
        failed = preload(tree)
        ready = {"kind": "ready", "pid": os.getpid(), "failed": failed}
        sys.stdout.write(json.dumps(ready) + "\n")
        sys.stdout.flush()
        os.dup2(devnull, 1)
        serve(listener, idle, code)
    finally:
        try:
            os.unlink(path)
            os.rmdir(os.path.dirname(path))
        except OSError:
            pass


main()
