# argparse as training scripts use it: typed options with defaults, flags,
# choices, nargs, append, count, positionals, --opt=value, prefixes, "--",
# parse_known_args, set_defaults, vars(), and the exits for bad input.
import argparse

parser = argparse.ArgumentParser(description='train a tiny model')
parser.add_argument('data', help='path to the data')
parser.add_argument('--lr', '--learning-rate', type=float, default=3e-4, help='learning rate')
parser.add_argument('--epochs', type=int, default='5')
parser.add_argument('--batch-size', type=int, default=32)
parser.add_argument('--optim', choices=['sgd', 'adamw'], default='adamw')
parser.add_argument('--layers', type=int, nargs='+', default=[64, 64])
parser.add_argument('--tag', action='append')
parser.add_argument('-v', '--verbose', action='count', default=0)
parser.add_argument('--no-cuda', action='store_true')
parser.add_argument('--eval', dest='do_eval', action='store_false')
parser.add_argument('--resume', nargs='?', const='last.pt', default=None)

args = parser.parse_args(['names.txt'])
print(args)
print(vars(args))
args = parser.parse_args(['--lr=1e-3', 'data.txt', '--epochs', '10', '--batch-size', '8',
                          '--optim', 'sgd', '--layers', '128', '32', '--tag', 'a', '--tag', 'b',
                          '-v', '-v', '--no-cuda', '--eval', '--resume'])
print(args)
print(args.lr * 2, args.batch_size, args.layers, args.do_eval, args.resume)
args = parser.parse_args(['--learn', '0.5', '--resume', 'ckpt.pt', '--', '-weird-name'])
print(args.lr, args.resume, args.data)
args, rest = parser.parse_known_args(['x', '--unknown', '3', '--epochs', '2'])
print(args.epochs, rest)
parser.set_defaults(seed=1337)
print(parser.parse_args(['y']).seed)
print(argparse.Namespace(a=1, b='x'))
for bad in [[], ['d', '--lr', 'abc'], ['d', '--optim', 'rmsprop'], ['d', '--bogus'],
            ['d', '--layers'], ['d', '--epochs']]:
    try:
        parser.parse_args(bad)
    except SystemExit as e:
        print('exit', e.code, bad)
