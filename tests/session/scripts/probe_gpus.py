# gpus(): one record per GPU, read here from the recorded machine trees in
# tests/fixtures/probe (root= stands in for /, as NNDB_SYSROOT does).
mi50 = 'tests/fixtures/probe/mi50-chipset'
g = gpus(root=mi50)
print(len(g), len(g[0].readings) > 50)  # expect: 1 True
x = g[0]
print(x.name)  # expect: AMD Radeon Pro VII/Radeon Instinct MI50 32GB
print(x.vendor, x.pci, x.driver)  # expect: AMD 0000:05:00.0 amdgpu
# The MI50 sits behind its own Vega 20 bridges on a chipset x4 Gen3 port:
# the link is the narrowest hop, link_max what the card can do.
print(x.link, '|', x.link_max, '|', x.narrowest_hop)  # expect: x4 Gen3 | x16 Gen4 | 0000:00:1c.4-0000:03:00.0
print(round(x.link_gbps, 3))  # expect: 3.938
print(x.vram_total, x.vram_used, x.vram_total // 2**30, x.bar_size // 2**20)  # expect: 34342961152 381588457 31 256
print(x.gfx_target, x.rocm_version, x.driver_version)  # expect: gfx906 6.4.0-47 None
print(x.temperature, x.power, x.power_cap)  # expect: 34.0 19.0 300.0
# No fan on a passive card: False, and its speeds are None (never 0).
print(x.fan, x.fan_rpm, x.fan_percent)  # expect: False None None
# numa_node -1 in sysfs means "no affinity": None.
print(x.numa_node, x.readings['pci.numa_node'], x.iommu_group)  # expect: None -1 16
print(x.vbios, x.uuid, x.render_node)  # expect: 113-D1631700-111 None renderD128
# Every reading with its source and unit.
print(x.readings['amdgpu.gfx_target'], x.sources['amdgpu.gfx_target'])  # expect: gfx906 sys/class/kfd/kfd/topology/nodes/1/properties
print(x.readings['mem.total'], x.units['mem.total'], x.sources['mem.total'])  # expect: 34342961152 bytes sys/bus/pci/devices/0000:05:00.0/mem_info_vram_total
print(x.readings['pci.link.narrowest_width'], x.units['pci.link.narrowest_width'])  # expect: 4 lanes
# A reading the source could not give is None, not 0.
print(x.readings['pci.atomics.requester_enabled'], 'pci.atomics.requester_enabled' in x.readings)  # expect: None True
print(x.sources['pci.atomics.requester_enabled'])  # expect: sys/bus/pci/devices/0000:05:00.0/config
print([k for k in x.readings if k.startswith('temp.')])  # expect: ['temp.edge', 'temp.edge.crit', 'temp.junction', 'temp.junction.crit', 'temp.mem', 'temp.mem.crit']
x.sources['temp.junction']  # expect: 'sys/bus/pci/devices/0000:05:00.0/hwmon/hwmon3/temp2_input'
x.nonexistent  # expect error: AttributeError
# A CPU-only machine (a server with only its BMC's VGA) has no GPU.
gpus(root='tests/fixtures/probe/cpu-only')  # expect: []
# NVIDIA from /proc and sysfs only: no NVML under a recorded tree, so what
# NVML would tell (VRAM, temperature, fan) is None.
n = gpus(root='tests/fixtures/probe/rtx4070')[0]
print(n.name, n.vendor, n.driver, n.link, n.link_max)  # expect: NVIDIA GeForce RTX 4070 NVIDIA nvidia x16 Gen4 x16 Gen4
print(n.vram_total, n.vram_used, n.temperature, n.power, n.fan, n.gfx_target, n.rocm_version)  # expect: None None None None None None None
print(n.driver_version, n.uuid, n.vbios)  # expect: 550.120 GPU-5a1c2f8e-33b1-7d90-1c4e-9a0b8e7f6d21 95.04.31.00.2b
h = gpus(root='tests/fixtures/probe/h100-server')[0]
print(h.name, h.link, h.numa_node, h.iommu_group, h.bar_size // 2**30)  # expect: NVIDIA H100 PCIe x16 Gen5 0 38 128
r = gpus(root='tests/fixtures/probe/no-render-group')[0]
print(r.gfx_target, r.fan, r.fan_rpm, r.vram_total)  # expect: gfx1100 True 0 25753026560
# A root that is not there is an OSError naming it.
gpus(root='tests/fixtures/probe/no-such-machine')  # expect error: OSError: gpus(): cannot read the machine tree 'tests/fixtures/probe/no-such-machine': No such file or directory
gpus(root='tests/session/scripts/probe_gpus.py')  # expect error: OSError: gpus(): the machine tree 'tests/session/scripts/probe_gpus.py' is not a directory
gpus(root=3)  # expect error: TypeError: gpus(): root must be a str (a directory), not int
gpus(mi50, 1)  # expect error: TypeError
gpus(where=mi50)  # expect error: TypeError
help(gpus)  # pydoc's text: the signature, then the docstring
# expect: Help on function gpus in module nndb.probe:
# expect:
# expect: gpus(root=None)
# expect:     The machine's GPUs as a list of GPU records, [] on a CPU-only machine.
# expect:     Each has name, vendor, pci (the PCI address), driver, vram_total and
# expect:     vram_used (bytes), link (the narrowest PCIe hop on the way to the CPU,
# expect:     'x4 Gen3'), link_max (what the card can do), narrowest_hop, link_gbps,
# expect:     temperature (C), power and power_cap (W), fan (True/False), fan_rpm,
# expect:     fan_percent, numa_node, iommu_group, gfx_target (AMD), driver_version
# expect:     (NVIDIA), rocm_version (AMD), vbios, uuid, render_node and bar_size;
# expect:     .readings maps every probe key to its value, .sources to the file or
# expect:     call it came from and .units to its unit. root= reads a recorded
# expect:     machine tree instead of / (as NNDB_SYSROOT does).
# expect:     ...
# expect:     Example:
# expect:         g = gpus(); [(x.name, x.link, x.vram_total) for x in g]
# expect:
