"""Knuth's toy exact cover problem, three ways: names, DLX text and a 0/1 matrix."""

import dancecard

# Seven primary items a..g; six options. The only solution: {a d f}, {b g}, {c e}.
problem = dancecard.Problem("a b c d e f g",
                            options=["c e", "a d g", "b c f", "a d f", "b g", "d e g"])
solution = problem.first()
print("solution:", [problem.options[k] for k in solution])
assert solution == [0, 3, 4]
print("count:", problem.count(), problem.stats)

# The same problem in Knuth's DLX format, written and read back.
text = problem.to_dlx()
print(text, end="")
assert dancecard.Problem.from_dlx(text).count() == 1

# And as a 0/1 matrix: one row per option, one column per item.
rows = [[int(item in option.split()) for item in "abcdefg"] for option in problem.options]
assert dancecard.Problem.from_matrix(rows).first() == [0, 3, 4]

# Colors: secondary item x can be shared by options that give it the same color.
colored = dancecard.Problem("p q", secondary="x", options=["p x:red", "q x:red", "q x:blue"])
assert list(colored.solutions()) == [[0, 1]]
print("colored solutions:", list(colored.solutions()))
