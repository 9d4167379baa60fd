"""The PYTHON* variables a script's user expects of python3 work under
`nndb python` too: PYTHONUNBUFFERED (stdout written at once, so it
interleaves with stderr in a log), PYTHONHASHSEED (and its refusal),
PYTHONWARNINGS, PYTHONPATH (relative folders made absolute, after the
script's folder). Each runs in a child started with sys.executable, which
is nndb itself under nndb."""
import os
import subprocess
import sys
import tempfile

base = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}


def run(code, **env):
    r = subprocess.run([sys.executable, "-c", code], env=dict(base, **env),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return r.returncode, r.stdout


interleave = "import sys; print('a', end=' '); sys.stderr.write('E\\n'); print('b')"
print(run(interleave))
print(run(interleave, PYTHONUNBUFFERED="1"))
print(run("print(hash('abc'), hash((1, 'x')))", PYTHONHASHSEED="5"))
rc, out = run("pass", PYTHONHASHSEED="abc")
print(rc, "PYTHONHASHSEED must be" in out)
rc, out = run("import warnings; warnings.warn('careful')", PYTHONWARNINGS="error::UserWarning")
print(rc, out.strip().splitlines()[-1])
print(run("import warnings; warnings.warn('quiet'); print('ran')", PYTHONWARNINGS="ignore"))
with tempfile.TemporaryDirectory() as d:
    os.mkdir(os.path.join(d, "lib"))
    with open(os.path.join(d, "lib", "course_utils.py"), "w") as f:
        f.write("ANSWER = 42\n")
    code = ("import sys, course_utils; print(course_utils.ANSWER, %r in sys.path)"
            % os.path.join(d, "lib"))
    r = subprocess.run([sys.executable, "-c", code], env=dict(base, PYTHONPATH="lib"), cwd=d,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(r.returncode, r.stdout)
