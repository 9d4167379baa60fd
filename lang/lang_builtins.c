#include "lang_builtins.h"

const lang_builtin_def *const lang_builtin_families[] = {
    lang_core_builtins,
    lang_tensor_builtins,
    lang_plot_builtins,
    NULL,
};
