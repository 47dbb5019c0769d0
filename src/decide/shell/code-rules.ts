/**
 * Code that an interpreter runs from the command line (`python -c`, `node -e`, `ruby -e`, `perl -e`,
 * `php -r`, `deno eval`, or a script fed on stdin): the standard-library calls that delete, move or
 * rewrite files, or run a shell, as data. The first match at a position wins. A call whose path or
 * script is a literal becomes the equivalent shell command, which the shell rules then decide; a call
 * whose arguments guard cannot read makes the whole command opaque (ASK).
 *
 * `shell` is the equivalent command: `{0}`, `{1}` are the call's literal arguments, shell-quoted; for
 * kind "shell" the first argument is itself a shell script, for "argv" a list of words, for "eval" code
 * in the same language. `when`/`shellWhen`: a variant chosen when the call's text matches (e.g. a
 * `force: true` option). `after`: the text right after the call must match (pathlib's `Path('x').unlink()`).
 * Every example runs as a test (test/shell/code-rules.test.ts): `flag` gives code and the equivalent
 * command, `pass` code that names none of these calls.
 */
export type Language = "python" | "node" | "ruby" | "perl" | "php" | "deno" | "awk";

export interface CodeRule {
  id: string;
  languages: Language[];
  /** Matches up to (not including) the call's arguments. */
  call: RegExp;
  kind: "command" | "shell" | "argv" | "eval";
  shell?: string;
  when?: RegExp;
  shellWhen?: string;
  after?: RegExp;
  examples: { flag: [code: string, shell: string][]; pass: string[] };
}

const PY: Language[] = ["python"];
const JS: Language[] = ["node", "deno"];

export const CODE_RULES: CodeRule[] = [
  // Python
  { id: "py-rmtree", languages: PY, call: /\b(?:shutil\.)?rmtree\s*(?=\()/y, kind: "command", shell: "rm -r {0}", when: /ignore_errors\s*=\s*True/, shellWhen: "rm -rf {0}", examples: { flag: [["import shutil; shutil.rmtree('src')", "rm -r 'src'"], ["from shutil import rmtree; rmtree(\"build\", ignore_errors=True)", "rm -rf 'build'"]], pass: ["import shutil; print(shutil.which('ls'))"] } },
  { id: "py-remove", languages: PY, call: /\bos\.(?:remove|unlink)\s*(?=\()/y, kind: "command", shell: "rm {0}", examples: { flag: [["import os; os.remove('notes.txt')", "rm 'notes.txt'"], ["import os; os.unlink('a.txt')", "rm 'a.txt'"]], pass: ["import os; print(os.getcwd())"] } },
  { id: "py-rmdir", languages: PY, call: /\bos\.(?:rmdir|removedirs)\s*(?=\()/y, kind: "command", shell: "rmdir {0}", examples: { flag: [["import os; os.rmdir('docs')", "rmdir 'docs'"]], pass: ["import os; os.mkdir('out')"] } },
  { id: "py-move", languages: PY, call: /\b(?:os\.(?:rename|replace)|shutil\.move)\s*(?=\()/y, kind: "command", shell: "mv {0} {1}", examples: { flag: [["import os; os.replace('a.txt', 'README.md')", "mv 'a.txt' 'README.md'"]], pass: ["print('os.replace')"] } },
  { id: "py-copy", languages: PY, call: /\bshutil\.copy(?:file|2)?\s*(?=\()/y, kind: "command", shell: "cp {0} {1}", examples: { flag: [["import shutil; shutil.copy('a.txt', 'README.md')", "cp 'a.txt' 'README.md'"]], pass: ["import shutil; shutil.copytree"] } },
  { id: "py-truncate", languages: PY, call: /\bos\.truncate\s*(?=\()/y, kind: "command", shell: "truncate -s 0 {0}", examples: { flag: [["import os; os.truncate('notes.txt', 0)", "truncate -s 0 'notes.txt'"]], pass: ["import os"] } },
  { id: "py-open-write", languages: PY, call: /\bopen\s*(?=\()/y, kind: "command", when: /^\(\s*[^,]+,\s*(?:mode\s*=\s*)?[rbf]?['"][wx]/, shellWhen: ": > {0}", examples: { flag: [["open('README.md', 'w').write('x')", ": > 'README.md'"]], pass: ["print(open('README.md').read())", "open('log.txt', 'a').write('x')"] } },
  { id: "py-path-unlink", languages: PY, call: /\bPath\s*(?=\()/y, kind: "command", after: /^\s*\.(?:unlink|rmdir)\s*\(/, shell: "rm -d {0}", examples: { flag: [["from pathlib import Path; Path('notes.txt').unlink()", "rm -d 'notes.txt'"]], pass: ["from pathlib import Path; print(Path('notes.txt').exists())"] } },
  { id: "py-path-write", languages: PY, call: /\bPath\s*(?=\()/y, kind: "command", after: /^\s*\.(?:write_text|write_bytes)\s*\(/, shell: ": > {0}", examples: { flag: [["from pathlib import Path; Path('README.md').write_text('x')", ": > 'README.md'"]], pass: ["from pathlib import Path; Path('README.md').read_text()"] } },
  { id: "py-system", languages: PY, call: /\bos\.(?:system|popen)\s*(?=\()/y, kind: "shell", examples: { flag: [["import os; os.system('rm -rf src')", "rm -rf src"]], pass: ["import os; print(os.name)"] } },
  { id: "py-subprocess", languages: PY, call: /\bsubprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)\s*(?=\()/y, kind: "argv", examples: { flag: [["import subprocess; subprocess.run(['rm', '-rf', 'src'])", "'rm' '-rf' 'src'"], ["import subprocess; subprocess.call('rm -f notes.txt', shell=True)", "rm -f notes.txt"]], pass: ["import subprocess"] } },
  { id: "py-exec", languages: PY, call: /\b(?:exec|eval|compile|getattr)\s*(?=\()/y, kind: "eval", examples: { flag: [["exec(\"import os; os.remove('notes.txt')\")", "rm 'notes.txt'"]], pass: ["print(1 + 1)"] } },
  // Node and Deno
  { id: "js-rm", languages: JS, call: /\.(?:rmSync|rm)\s*(?=\()/y, kind: "command", shell: "rm -r {0}", when: /force\s*:\s*true/, shellWhen: "rm -rf {0}", examples: { flag: [["require('fs').rmSync('src', { recursive: true })", "rm -r 'src'"], ["fs.rmSync('dist', { recursive: true, force: true })", "rm -rf 'dist'"]], pass: ["console.log(require('fs').existsSync('src'))"] } },
  { id: "js-unlink", languages: JS, call: /\.(?:unlinkSync|unlink)\s*(?=\()/y, kind: "command", shell: "rm {0}", examples: { flag: [["require('fs').unlinkSync('notes.txt')", "rm 'notes.txt'"]], pass: ["fs.readFileSync('notes.txt')"] } },
  { id: "js-rmdir", languages: JS, call: /\.(?:rmdirSync|rmdir)\s*(?=\()/y, kind: "command", shell: "rmdir {0}", when: /recursive\s*:\s*true/, shellWhen: "rm -r {0}", examples: { flag: [["fs.rmdirSync('docs', { recursive: true })", "rm -r 'docs'"]], pass: ["fs.mkdirSync('out')"] } },
  { id: "js-rename", languages: JS, call: /\.(?:renameSync|rename)\s*(?=\()/y, kind: "command", shell: "mv {0} {1}", examples: { flag: [["fs.renameSync('a.txt', 'README.md')", "mv 'a.txt' 'README.md'"]], pass: ["fs.statSync('a.txt')"] } },
  { id: "js-copy", languages: JS, call: /\.(?:copyFileSync|copyFile|cpSync)\s*(?=\()/y, kind: "command", shell: "cp {0} {1}", examples: { flag: [["fs.copyFileSync('a.txt', 'README.md')", "cp 'a.txt' 'README.md'"]], pass: ["fs.existsSync('a.txt')"] } },
  { id: "js-write", languages: JS, call: /\.(?:writeFileSync|writeFile|truncateSync|truncate)\s*(?=\()/y, kind: "command", shell: ": > {0}", examples: { flag: [["require('fs').writeFileSync('README.md', 'x')", ": > 'README.md'"]], pass: ["require('fs').appendFileSync('log.txt', 'x')"] } },
  { id: "deno-remove", languages: ["deno"], call: /\bDeno\.(?:removeSync|remove)\s*(?=\()/y, kind: "command", shell: "rm -d {0}", when: /recursive\s*:\s*true/, shellWhen: "rm -r {0}", examples: { flag: [["await Deno.remove('src', { recursive: true })", "rm -r 'src'"]], pass: ["console.log(Deno.cwd())"] } },
  { id: "deno-write", languages: ["deno"], call: /\bDeno\.(?:writeTextFileSync|writeTextFile|writeFileSync|writeFile|truncateSync|truncate)\s*(?=\()/y, kind: "command", shell: ": > {0}", examples: { flag: [["await Deno.writeTextFile('README.md', 'x')", ": > 'README.md'"]], pass: ["await Deno.readTextFile('README.md')"] } },
  { id: "js-exec", languages: JS, call: /\b(?:execSync|exec)\s*(?=\()/y, kind: "shell", examples: { flag: [["require('child_process').execSync('rm -rf src')", "rm -rf src"]], pass: ["console.log('exec')"] } },
  { id: "js-spawn", languages: JS, call: /\b(?:spawnSync|spawn|execFileSync|execFile)\s*(?=\()/y, kind: "argv", examples: { flag: [["require('child_process').spawnSync('rm', ['-rf', 'src'])", "'rm' '-rf' 'src'"]], pass: ["process.exit(0)"] } },
  { id: "js-eval", languages: JS, call: /\b(?:eval|Function)\s*(?=\()/y, kind: "eval", examples: { flag: [["eval(\"require('fs').unlinkSync('notes.txt')\")", "rm 'notes.txt'"]], pass: ["console.log(1)"] } },
  // Ruby
  { id: "rb-rm", languages: ["ruby"], call: /\bFileUtils\.(?:rm_rf|rm_r|remove_dir|remove_entry|remove_entry_secure|rmtree)\b/y, kind: "command", shell: "rm -rf {0}", examples: { flag: [["require 'fileutils'; FileUtils.rm_rf('src')", "rm -rf 'src'"], ["FileUtils.rm_r 'docs'", "rm -rf 'docs'"]], pass: ["require 'fileutils'; FileUtils.mkdir_p('out')"] } },
  { id: "rb-delete", languages: ["ruby"], call: /\b(?:FileUtils\.(?:rm_f|rm|remove)|File\.(?:delete|unlink)|Dir\.(?:delete|rmdir|unlink))\b/y, kind: "command", shell: "rm -f {0}", examples: { flag: [["File.delete('notes.txt')", "rm -f 'notes.txt'"]], pass: ["puts File.exist?('notes.txt')"] } },
  { id: "rb-move", languages: ["ruby"], call: /\b(?:FileUtils\.(?:mv|move)|File\.rename)\b/y, kind: "command", shell: "mv {0} {1}", examples: { flag: [["FileUtils.mv('a.txt', 'README.md')", "mv 'a.txt' 'README.md'"]], pass: ["puts 1"] } },
  { id: "rb-write", languages: ["ruby"], call: /\bFile\.(?:write|binwrite)\b/y, kind: "command", shell: ": > {0}", examples: { flag: [["File.write('README.md', 'x')", ": > 'README.md'"]], pass: ["puts File.read('README.md')"] } },
  { id: "rb-system", languages: ["ruby"], call: /\b(?:system|exec|spawn|%x)\b|(?<![\w$])`/y, kind: "shell", examples: { flag: [["system('rm -rf src')", "rm -rf src"], ["`rm -f notes.txt`", "rm -f notes.txt"]], pass: ["puts 'hello'"] } },
  { id: "rb-eval", languages: ["ruby"], call: /\b(?:eval|instance_eval|class_eval)\b/y, kind: "eval", examples: { flag: [["eval(\"File.delete('notes.txt')\")", "rm -f 'notes.txt'"]], pass: ["puts 2"] } },
  // Perl
  { id: "pl-rmtree", languages: ["perl"], call: /\b(?:File::Path::)?(?:rmtree|remove_tree)\b/y, kind: "command", shell: "rm -rf {0}", examples: { flag: [["use File::Path; rmtree('src')", "rm -rf 'src'"]], pass: ["use File::Path; make_path('out')"] } },
  { id: "pl-unlink", languages: ["perl"], call: /\b(?:unlink|rmdir)\b/y, kind: "command", shell: "rm -f {0}", examples: { flag: [["unlink 'notes.txt'", "rm -f 'notes.txt'"], ["unlink(\"a.txt\")", "rm -f 'a.txt'"]], pass: ["print 'hello'", "print if /unlink/"] } },
  { id: "pl-rename", languages: ["perl"], call: /\brename\b/y, kind: "command", shell: "mv {0} {1}", examples: { flag: [["rename('a.txt', 'README.md')", "mv 'a.txt' 'README.md'"]], pass: ["print 1"] } },
  { id: "pl-system", languages: ["perl"], call: /\b(?:system|exec|qx)\b|(?<![\w$])`/y, kind: "shell", examples: { flag: [["system('rm -rf src')", "rm -rf src"]], pass: ["print 'hello'", "s/system/exec/g"] } },
  { id: "pl-eval", languages: ["perl"], call: /\beval\b/y, kind: "eval", examples: { flag: [["eval(\"unlink 'notes.txt'\")", "rm -f 'notes.txt'"]], pass: ["print 3"] } },
  // awk (the program is the first operand: `awk 'BEGIN { system("…") }'`)
  { id: "awk-system", languages: ["awk"], call: /\bsystem\s*(?=\()/y, kind: "shell", examples: { flag: [['BEGIN { system("rm -rf src") }', "rm -rf src"], ['BEGIN { system("rm\\x20-f\\040notes.txt") }', "rm -f notes.txt"]], pass: ["{ print $1 }", "BEGIN { print \"system\" }"] } },
  // `"cmd" | getline` and `print … | "cmd"` run cmd through sh; a command that is not a plain literal is opaque.
  { id: "awk-pipe", languages: ["awk"], call: /(?="(?:[^"\\]|\\.)*"\s*\|\s*getline)|\|&?\s*(?=")/y, kind: "shell", examples: { flag: [['BEGIN { print "x" | "rm -rf src"; close("rm -rf src") }', "rm -rf src"], ['BEGIN { "rm -f notes.txt" | getline }', "rm -f notes.txt"]], pass: ["{ n++ } END { print n }", "{ print $1 > \"out.txt\" }"] } },
  // PHP
  { id: "php-unlink", languages: ["php"], call: /\b(?:unlink|rmdir)\s*(?=\()/y, kind: "command", shell: "rm -f {0}", examples: { flag: [["unlink('notes.txt');", "rm -f 'notes.txt'"]], pass: ["echo 'unlink';"] } },
  { id: "php-rename", languages: ["php"], call: /\b(?:rename|copy)\s*(?=\()/y, kind: "command", shell: "mv {0} {1}", examples: { flag: [["rename('a.txt', 'README.md');", "mv 'a.txt' 'README.md'"]], pass: ["echo 1;"] } },
  { id: "php-write", languages: ["php"], call: /\bfile_put_contents\s*(?=\()/y, kind: "command", shell: ": > {0}", when: /FILE_APPEND/, shellWhen: ": >> {0}", examples: { flag: [["file_put_contents('README.md', 'x');", ": > 'README.md'"]], pass: ["echo file_get_contents('README.md');"] } },
  { id: "php-system", languages: ["php"], call: /\b(?:system|exec|shell_exec|passthru|popen|proc_open)\s*(?=\()|(?<![\w$])`/y, kind: "shell", examples: { flag: [["system('rm -rf src');", "rm -rf src"]], pass: ["echo 'ok';"] } },
  { id: "php-eval", languages: ["php"], call: /\beval\s*(?=\()/y, kind: "eval", examples: { flag: [["eval(\"unlink('notes.txt');\");", "rm -f 'notes.txt'"]], pass: ["echo 4;"] } },
];
