#!/usr/bin/env python3
"""Lists the main source files and methods that are over the house limits.

Usage: scripts/code-sizes.py [--file-lines N] [--method-lines M] [--check]

Files are every src/main/java/**/*.java of every module (tests and generated sources are left out). A file may
stay over the limit when its first 30 lines say why, in a comment line starting with "Size:"; such files are
listed apart. Methods are found by their braces: a '{' whose preceding text ends in a parameter list (and
optional throws clause) and does not start with a control keyword opens a method, constructor or lambda-free
block body; its length runs from the signature's first line to the closing brace. With --check the exit code
is 1 when a file without a reason or a method is over its limit.
"""
import argparse
import os
import re
import sys

CONTROL = re.compile(r'^(if|for|while|switch|catch|synchronized|try|else|do|return|new|case)\b')
RECORD = re.compile(r'\brecord\s+\w+\s*[(<]')
SIGNATURE = re.compile(r'(\w+)\s*\((.|\n)*\)\s*(throws\s+[\w.,\s<>]+)?\s*$')


def strip(code):
    """Blanks comments and string/char literals, keeping line breaks, so braces inside them do not count."""
    out = []
    i, n = 0, len(code)
    while i < n:
        c = code[i]
        if code.startswith('//', i):
            j = code.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif code.startswith('/*', i):
            j = code.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', code[i:j]))
            i = j
        elif code.startswith('"""', i):
            j = code.find('"""', i + 3)
            j = n if j < 0 else j + 3
            out.append(re.sub(r'[^\n]', ' ', code[i:j]))
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and code[j] != c and code[j] != '\n':
                j += 2 if code[j] == '\\' else 1
            out.append(' ' * (min(j + 1, n) - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def methods(path):
    """Yields (name, first line, line count) for each method or constructor body in the file."""
    with open(path, encoding='utf-8') as f:
        code = strip(f.read())
    stack = []          # per open brace: (name or None, start line)
    last_stop = 0       # index just after the last ';', '{' or '}'
    line = 1
    for i, c in enumerate(code):
        if c == '\n':
            line += 1
        elif c == '{':
            head = code[last_stop:i].strip()
            head = re.sub(r'@\w+(\([^)]*\))?', '', head).strip()
            m = SIGNATURE.search(head)
            name = None
            if (m and not CONTROL.match(head) and '->' not in head and '=' not in head.split('(')[0]
                    and not RECORD.search(head)):
                name = m.group(1)
            first = code[last_stop:i]
            lead = len(first) - len(first.lstrip())
            start = code[:last_stop + lead].count('\n') + 1
            stack.append((name, start))
            last_stop = i + 1
        elif c == '}':
            if stack:
                name, start = stack.pop()
                if name:
                    yield name, start, line - start + 1
            last_stop = i + 1
        elif c == ';':
            last_stop = i + 1


def main_sources(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in ('target', '.git', 'node_modules')]
        if os.sep + os.path.join('src', 'main', 'java') not in dirpath + os.sep:
            continue
        for name in filenames:
            if name.endswith('.java'):
                yield os.path.join(dirpath, name)


def has_reason(path):
    with open(path, encoding='utf-8') as f:
        head = [next(f, '') for _ in range(30)]
    return any(re.search(r'^\s*(\*|//)\s*Size:', l) for l in head)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--file-lines', type=int, default=500)
    parser.add_argument('--method-lines', type=int, default=60)
    parser.add_argument('--check', action='store_true')
    parser.add_argument('--root', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
    args = parser.parse_args()
    root = os.path.normpath(args.root)
    big_files, reasoned, long_methods = [], [], []
    for path in sorted(main_sources(root)):
        rel = os.path.relpath(path, root)
        with open(path, encoding='utf-8') as f:
            count = sum(1 for _ in f)
        if count > args.file_lines:
            (reasoned if has_reason(path) else big_files).append((count, rel))
        for name, start, length in methods(path):
            if length > args.method_lines:
                long_methods.append((length, f'{rel}:{start}', name))
    print(f'files over {args.file_lines} lines: {len(big_files)}')
    for count, rel in sorted(big_files, reverse=True):
        print(f'  {count:5d}  {rel}')
    print(f'files over {args.file_lines} lines with a reason at the top: {len(reasoned)}')
    for count, rel in sorted(reasoned, reverse=True):
        print(f'  {count:5d}  {rel}')
    print(f'methods over {args.method_lines} lines: {len(long_methods)}')
    for length, where, name in sorted(long_methods, reverse=True):
        print(f'  {length:5d}  {where}  {name}')
    if args.check and (big_files or long_methods):
        sys.exit(1)


if __name__ == '__main__':
    main()
