/* py_optim: see py.h. (Being written.) */
#include "py.h"

PyMethodDef py_optim_functions[] = {
    {NULL, NULL, 0, NULL},
};
