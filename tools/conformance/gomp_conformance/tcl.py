"""Just enough Tcl to read DejaGnu directives: list splitting, backslash substitution, ARE regexps."""

import re

_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}


class TclSyntaxError(ValueError):
    """The text is not a well-formed Tcl list (unbalanced braces or quotes)."""


def substitute_backslashes(text: str) -> str:
    """Tcl's backslash substitution, as done inside "quoted" and bare words.

    Command substitution ([...]) and variables ($x) are not performed: the
    libgomp tests escape their brackets, and no directive uses a variable."""
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char != "\\" or i + 1 == len(text):
            out.append(char)
            i += 1
            continue
        nxt = text[i + 1]
        if nxt in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[nxt])
            i += 2
        elif nxt == "x":
            digits = re.match(r"[0-9a-fA-F]{1,2}", text[i + 2 :])
            if digits:
                out.append(chr(int(digits.group(), 16)))
                i += 2 + len(digits.group())
            else:
                out.append("x")
                i += 2
        elif nxt in "01234567":
            digits = re.match(r"[0-7]{1,3}", text[i + 1 :])
            assert digits is not None
            out.append(chr(int(digits.group(), 8)))
            i += 1 + len(digits.group())
        else:
            # Any other escaped character stands for itself (\[ \" \\ \{ ...).
            out.append(nxt)
            i += 2
    return "".join(out)


def split_list(text: str) -> list[str]:
    """Split a Tcl list into its elements.

    {braced} elements are kept verbatim (nested braces balanced, escaped braces
    not counted); "quoted" and bare elements get backslash substitution."""
    words: list[str] = []
    i = 0
    length = len(text)
    while True:
        while i < length and text[i].isspace():
            i += 1
        if i >= length:
            return words
        if text[i] == "{":
            depth = 1
            start = i + 1
            i += 1
            while i < length and depth:
                if text[i] == "\\":
                    i += 2
                    continue
                if text[i] == "{":
                    depth += 1
                elif text[i] == "}":
                    depth -= 1
                i += 1
            if depth:
                raise TclSyntaxError(f"unbalanced braces in {text!r}")
            words.append(text[start : i - 1])
        elif text[i] == '"':
            start = i + 1
            i += 1
            while i < length and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            if i >= length:
                raise TclSyntaxError(f"unbalanced quotes in {text!r}")
            words.append(substitute_backslashes(text[start:i]))
            i += 1
        else:
            start = i
            while i < length and not text[i].isspace():
                i += 2 if text[i] == "\\" else 1
            words.append(substitute_backslashes(text[start:i]))


# Tcl ARE escapes that Python's re spells differently (word boundaries).
_ARE_ESCAPES = {"m": r"\b", "M": r"\b", "y": r"\b", "Y": r"\B"}
_POSIX_CLASSES = {
    "[:digit:]": r"0-9",
    "[:alpha:]": r"a-zA-Z",
    "[:alnum:]": r"a-zA-Z0-9",
    "[:space:]": r"\s",
    "[:upper:]": r"A-Z",
    "[:lower:]": r"a-z",
    "[:xdigit:]": r"0-9a-fA-F",
}


def are_to_python(pattern: str) -> str:
    """Approximate a Tcl advanced regular expression with Python re syntax.

    Translated: the word-boundary escapes \\m \\M \\y \\Y and the POSIX
    classes [:digit:] etc. Everything else is read as Python reads it, which
    agrees with Tcl for what the libgomp tests use (classes, groups,
    alternation, \\n, quantifiers). Match with re.DOTALL and no MULTILINE:
    Tcl's '.' and '[^x]' match a newline and '^'/'$' anchor the whole text."""
    for posix, python in _POSIX_CLASSES.items():
        pattern = pattern.replace(posix, python)
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern[i] == "\\" and i + 1 < len(pattern):
            pair = pattern[i + 1]
            out.append(_ARE_ESCAPES.get(pair, "\\" + pair))
            i += 2
        else:
            out.append(pattern[i])
            i += 1
    return "".join(out)
