"""A notebook imports the user's own .py files from its working directory
(the directory Jupyter starts the kernel in), as ipykernel does."""
import harness
from harness import stdout_of


def test_import_from_notebook_cwd(tmp_path):
    (tmp_path / "nb_helper.py").write_text(
        "def twice(x):\n    return 2 * x\n\nNAME = __name__\nprint('loading', NAME)\n")
    k = harness.Kernel(cwd=str(tmp_path))
    try:
        rep, io = k.execute("import nb_helper\nprint(nb_helper.twice(21), __name__)")
        assert rep["content"]["status"] == "ok", rep["content"]
        assert stdout_of(io) == "loading nb_helper\n42 __main__\n"
        # cached: a second import does not run the file again
        rep, io = k.execute("import nb_helper as h\nfrom nb_helper import twice\n"
                            "print(h is nb_helper, twice(2))")
        assert rep["content"]["status"] == "ok", rep["content"]
        assert stdout_of(io) == "True 4\n"
    finally:
        k.close()
