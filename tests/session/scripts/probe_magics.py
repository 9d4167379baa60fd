# %probe and %doctor show their reports through the front end as a MIME
# bundle (text/plain and text/html; the runner checks printed text only,
# so these check that the reports run and that bad input is an error).
%probe --root tests/fixtures/probe/mi50-chipset
%probe --no-bandwidth --root=tests/fixtures/probe/cpu-only
%probe --json --root 'tests/fixtures/probe/rtx4070'
%doctor --root tests/fixtures/probe/mi50-chipset
%doctor --json --root tests/fixtures/probe/cpu-only
%doctor --root tests/fixtures/probe/h100-server  # a comment is not an argument
%doctor --root tests/fixtures/probe/no-such-machine  # expect error: IOError: %doctor: cannot read the machine tree 'tests/fixtures/probe/no-such-machine': No such file or directory
%probe --root  # expect error: ValueError: %probe --root needs a directory
%doctor --no-bandwidth  # expect error: ValueError: %doctor: unknown option '--no-bandwidth'; the options are --json, --root DIR
%probe -x  # expect error: ValueError: %probe: unknown option '-x'; the options are --json, --no-bandwidth, --root DIR
%help %doctor
# expect: %doctor [--json] [--root DIR]
# expect:
# expect:     Findings about the GPU setup, each with evidence and a fix (as `nndb doctor`); --root reads a recorded machine tree instead of /.
# expect:
# expect:     Example:
# expect:         %doctor
