# plot, hist and display show their output as they are called and return None.
losses = [2.3 / (step + 1) for step in range(50)]
r = plot(losses, [l * 1.1 for l in losses], labels=['train', 'val'], logy=True, title='loss')
print(r)
# expect: None
print(hist(randn(1000), bins=20, title='randn'))
# expect: None
print(plot(arange(10.0), xlabel='step', ylabel='value'))
# expect: None
print(display(tensor([1.0, 2.0])))
# expect: None
plot()
# expect error: TypeError: plot() needs at least one series: plot(losses)
