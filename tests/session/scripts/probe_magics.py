# %probe and %doctor print what `nndb probe` and `nndb doctor` print (the
# reports themselves are checked against the commands in
# tests/py/nndb_instruments_magics.py); here, each report's first lines,
# caught with redirect_stdout, and that bad input is a UsageError.
import contextlib
import io
def report_of(run):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        run()
    return buf.getvalue().splitlines()
def probe_mi50():
    %probe --root tests/fixtures/probe/mi50-chipset
report_of(probe_mi50)[:3]  # expect: ['nndb probe  (root: tests/fixtures/probe/mi50-chipset)', '', 'Host']
def probe_cpu():
    %probe --no-bandwidth --root=tests/fixtures/probe/cpu-only
report_of(probe_cpu)[0]  # expect: 'nndb probe  (root: tests/fixtures/probe/cpu-only)'
def probe_json():
    %probe --json --root 'tests/fixtures/probe/rtx4070'
report_of(probe_json)[:2]  # expect: ['{', '  "root": "tests/fixtures/probe/rtx4070",']
def doctor_mi50():
    %doctor --root tests/fixtures/probe/mi50-chipset
report_of(doctor_mi50)[0]  # expect: 'nndb doctor: 1 GPU checked; 0 errors, 4 warnings, 0 notes'
def doctor_json():
    %doctor --json --root tests/fixtures/probe/cpu-only
report_of(doctor_json)[:2]  # expect: ['{', '  "worst": "info",']
# nndb's own magics: a comment after the options is not one.
def doctor_h100():
    %doctor --root tests/fixtures/probe/h100-server  # a comment is not an argument
report_of(doctor_h100)[0]  # expect: 'nndb doctor: 1 GPU checked; 0 errors, 0 warnings, 0 notes'
report_of(doctor_h100)[1:3]  # expect: ['', 'OK    gpu-ok  [0000:17:00.0]']
%doctor --root tests/fixtures/probe/no-such-machine  # expect error: OSError: %doctor: cannot read the machine tree 'tests/fixtures/probe/no-such-machine': No such file or directory
%probe --root  # expect error: UsageError: %probe --root needs a directory
%doctor --no-bandwidth  # expect error: UsageError: %doctor: unknown option '--no-bandwidth'; the options are --json, --root DIR
%probe -x  # expect error: UsageError: %probe: unknown option '-x'; the options are --json, --no-bandwidth, --root DIR
%help %doctor
# expect: %doctor [--json] [--root DIR]
# expect:
# expect:     Findings about the GPU setup, each with evidence and a fix (as `nndb doctor`); --root reads a recorded machine tree instead of /.
# expect:
# expect:     Example:
# expect:         %doctor
