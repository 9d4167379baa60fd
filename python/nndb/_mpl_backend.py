"""matplotlib's backend in nndb sessions: Agg draws, and plt.show() sends the
open figures to the front end (a notebook's image/png display, the terminal's
text) instead of opening a window. Figures left open are shown when the cell
ends (nndb.display.flush_figures), as matplotlib-inline does in Jupyter."""

from matplotlib.backend_bases import _Backend
from matplotlib.backends.backend_agg import _BackendAgg


@_Backend.export
class _BackendNndb(_BackendAgg):
    @staticmethod
    def show(block=None):
        from nndb import display
        display.flush_figures()
