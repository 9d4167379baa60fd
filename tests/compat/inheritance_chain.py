# Inheritance: overriding, super() through several levels, class attributes.
class Animal:
    sound = "..."
    count = 0

    def __init__(self, name):
        self.name = name
        Animal.count += 1

    def speak(self):
        return f"{self.name} says {self.sound}"

    def __str__(self):
        return f"{type(self).__name__}({self.name})"


class Dog(Animal):
    sound = "woof"


class Puppy(Dog):
    def __init__(self, name, age):
        super().__init__(name)
        self.age = age

    def speak(self):
        return super().speak() + f" (age {self.age})"


animals = [Animal("generic"), Dog("rex"), Puppy("bit", 1)]
for a in animals:
    print(a, a.speak(), isinstance(a, Dog))
print(Animal.count, Puppy.sound, issubclass(Puppy, Animal), issubclass(Animal, Dog))
print(Puppy.__name__, Puppy.__bases__[0].__name__)
print(hasattr(animals[2], "age"), getattr(animals[1], "age", None))
