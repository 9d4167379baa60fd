# Importing the user's own modules from the script's directory: a module,
# a package with a submodule, import-as and from-import; each runs once.
import sys
import torch
import helper_model
from helper_model import TinyNet, TinyConfig
import helper_model as hm
import course_utils
import course_utils.data_helpers as dh
from course_utils.data_helpers import batches

print(__name__, helper_model.__name__, hm is helper_model, "helper_model" in sys.modules)
torch.manual_seed(0)
net = TinyNet(TinyConfig())
print(net)
out = net(torch.ones(4, 3))
print(out.shape, helper_model.calls, helper_model.describe())
helper_model.calls = 100
net(torch.ones(1, 3))
print(helper_model.describe())
print(course_utils.VERSION, course_utils.data_helpers is dh)
data = torch.arange(20)
x, y = dh.get_batch(data, 4, 2, 0)
print(x.tolist(), y.tolist())
print([b for b in batches(list(range(7)), 3)])
print(type(TinyConfig()).__name__, TinyConfig, TinyNet.__name__)
try:
    from helper_model import missing_name
except ImportError as e:
    print("ImportError", str(e).split(" (")[0])
try:
    import not_a_module_anywhere
except ModuleNotFoundError as e:
    print("ModuleNotFoundError", e.name if hasattr(e, "name") and e.name else "not_a_module_anywhere")
