/* py_instruments: the kernels under nndb.instruments (placeholder). */
#include "py.h"

PyMethodDef py_instruments_functions[] = {
    {NULL, NULL, 0, NULL},
};
