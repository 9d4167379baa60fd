# progress() wraps any iterable and yields the same items.
total = 0
for i in progress(range(1000), desc="sum"):
    total = total + i
print(total)
# expect: 499500
print(list(progress([3, 1, 2])))
# expect: [3, 1, 2]
for x in progress(range(10)):
    if x == 3:
        break
print(x)
# expect: 3
p = progress(range(5), total=5)
print(p)
# expect: <progress 0/5>
progress(3)
# expect error: TypeError: 'int' object is not iterable
update_display(1)
# expect error: TypeError: update_display() missing 1 required keyword-only argument: 'display_id'
