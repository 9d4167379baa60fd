# doctor(): the findings about a machine's GPU setup as records, errors
# first, read here from the recorded trees in tests/fixtures/probe.
mi50 = 'tests/fixtures/probe/mi50-chipset'
found = doctor(root=mi50)
print([f.id for f in found])  # expect: ['bar-smaller-than-vram', 'passive-cooling', 'pcie-link-degraded', 'rocm-target-deprecated']
print([f.severity for f in found])  # expect: ['warn', 'warn', 'warn', 'warn']
print([f.device for f in found] == ['0000:05:00.0'] * 4)  # expect: True
link = [f for f in found if f.id == 'pcie-link-degraded'][0]
print(link.summary[:62])  # expect: AMD Radeon Pro VII/Radeon Instinct MI50 32GB: PCIe link runs a
print('x4 Gen3' in link.summary, 'slot is the limit' in link.summary)  # expect: True True
print(len(link.evidence), link.evidence[0])
# expect: 7 pci.link.narrowest_hop = 0000:00:1c.4-0000:03:00.0  (sys/bus/pci/devices/0000:03:00.0/current_link_{speed,width})
print(link.fix[:45])  # expect: Move the card to a CPU-attached x16 slot (chi
rocm = found[3]
print(rocm.evidence)  # expect: ['amdgpu.gfx_target = gfx906  (sys/class/kfd/kfd/topology/nodes/1/properties)', 'rocm.version = 6.4.0-47  (opt/rocm/.info/version)']
print('gfx906' in rocm.summary)  # expect: True
# The warnings a notebook would act on.
print(len([f for f in found if f.severity in ('warn', 'error')]))  # expect: 4
# A CPU-only machine: one friendly note, nothing to fix.
cpu = doctor(root='tests/fixtures/probe/cpu-only')
print(len(cpu), cpu[0].id, cpu[0].severity, cpu[0].device)  # expect: 1 no-gpu info host
print(cpu[0].evidence[1])  # expect: display-only adapter: 0000:02:00.0 ASPEED Technology, Inc. ASPEED Graphics Family  (sys/bus/pci/devices)
# A healthy card: gpu-ok.
print([(f.id, f.severity) for f in doctor(root='tests/fixtures/probe/rtx4070')])  # expect: [('gpu-ok', 'ok')]
[f.id for f in doctor(root='tests/fixtures/probe/h100-server')]  # expect: ['gpu-ok']
doctor(root='tests/fixtures/probe/no-such-machine')  # expect error: OSError: doctor(): cannot read the machine tree 'tests/fixtures/probe/no-such-machine': No such file or directory
doctor(root=None, extra=1)  # expect error: TypeError
help(doctor)  # pydoc's text: the signature, then the docstring
# expect: Help on function doctor in module nndb.probe:
# expect:
# expect: doctor(root=None, json=False)
# expect:     What the probe's readings mean: a list of Finding records (id, severity
# expect:     'ok' / 'info' / 'warn' / 'error', device (a PCI address or 'host'),
# expect:     summary, evidence (a list of 'key = value (source)' strings) and fix),
# expect:     errors first; printed, it is the `nndb doctor` report, and it is falsy
# expect:     when a finding is a warning or worse. docs/probes.md lists every id.
# expect:     root= reads a recorded machine tree instead of /; json=True makes the
# expect:     printed report the JSON one (parsed into .data).
# expect:     ...
# expect:     Example:
# expect:         [f.id for f in doctor() if f.severity in ('warn', 'error')]
# expect:
