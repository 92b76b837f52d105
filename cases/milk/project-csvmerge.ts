import type { Project } from './project.ts';
import { cargo } from './runners.ts';

const rsHeader = `//! Merge CSV exports from several shops into one file with a unified header.
use std::collections::BTreeMap;
use std::io::{BufRead, Write};

#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
    #[error("row {row}: {msg}")]
    Row { row: usize, msg: String },
}

pub type Record = BTreeMap<String, String>;
`;

export const csvmerge: Project = {
  id: 'csvmerge',
  repo: 'acme/csvmerge',
  language: 'Rust',
  runner: cargo,
  srcPath: 'src/lib.rs',
  testPath: 'tests',
  integration: {
    what: 'the large-file benchmark',
    why: 'it streams 4 GB exports from the S3 bucket and I have no credentials',
    claim: 'the fix holds on 4 GB exports streamed from S3',
    cues: ['holds on 4 gb exports'],
  },
  header: rsHeader,
  tests: [
    'parse_simple',
    'parse_empty_file',
    'parse_header_only',
    'parse_quoted_comma',
    'parse_escaped_quote',
    'parse_crlf',
    'parse_bom',
    'parse_unicode',
    'parse_whitespace_kept',
    'merge_two_files',
    'merge_union_header',
    'merge_header_order_stable',
    'merge_missing_column_empty',
    'merge_duplicate_rows_kept',
    'merge_three_files',
    'write_header_first',
    'write_quotes_when_needed',
    'write_no_trailing_newline_issue',
    'write_crlf_option',
    'error_row_number',
    'error_bad_quote',
    'stream_large_input',
    'cli_args',
    'cli_output_file',
    'cli_stdin',
  ],
  bugs: [
    {
      id: 'newline',
      title: 'quoted fields with a newline split the record',
      issue:
        'A product description with a line break inside quotes becomes two broken rows in the merged file.',
      fn: 'read_records',
      buggy: `pub fn read_records<R: BufRead>(input: R) -> Result<Vec<Record>, MergeError> {\n    let mut lines = input.lines();\n    let header = split_fields(&lines.next().transpose()?.unwrap_or_default());\n    let mut out = Vec::new();\n    for (i, line) in lines.enumerate() {\n        let fields = split_fields(&line?);\n        out.push(header.iter().cloned().zip(fields).collect());\n        let _ = i;\n    }\n    Ok(out)\n}\n`,
      fixed: `pub fn read_records<R: BufRead>(input: R) -> Result<Vec<Record>, MergeError> {\n    let mut lines = input.lines();\n    let header = split_fields(&lines.next().transpose()?.unwrap_or_default());\n    let mut out = Vec::new();\n    let mut pending = String::new();\n    for (i, line) in lines.enumerate() {\n        if !pending.is_empty() { pending.push('\\n'); }\n        pending.push_str(&line?);\n        if pending.matches('"').count() % 2 == 1 { continue; } // inside quotes: record continues\n        let fields = split_fields(&pending);\n        out.push(header.iter().cloned().zip(fields).collect());\n        pending.clear();\n        let _ = i;\n    }\n    if !pending.is_empty() { return Err(MergeError::Row { row: out.len() + 2, msg: "unterminated quote".into() }); }\n    Ok(out)\n}\n`,
      failingTest: 'parse_quoted_newline',
      failure: [
        "thread 'tests::parse_quoted_newline' panicked at src/lib.rs:212:9:",
        'assertion `left == right` failed',
        '  left: 3',
        ' right: 2',
      ],
      cause: {
        statement:
          'read_records split the input on every line break before looking at quotes, so a quoted field containing a newline became two records',
        cues: ['read_records', 'before looking at quotes'],
      },
      fix: {
        statement:
          'read_records now keeps joining lines while a quote is open and errors on an unterminated quote',
        cues: ['keeps joining lines while a quote is open'],
      },
      regression: {
        name: 'parse_quoted_crlf_newline',
        code: '#[test]\nfn parse_quoted_crlf_newline() {\n    let rows = read_records("a,b\\r\\n\\"x\\r\\ny\\",2\\r\\n".as_bytes()).unwrap();\n    assert_eq!(rows.len(), 1);\n}\n',
      },
      assumption: {
        statement:
          'Assuming exports never contain a stray unbalanced quote inside an unquoted field; such a file now fails loudly.',
        claim: 'exports never contain a stray unbalanced quote inside an unquoted field',
        cues: ['stray unbalanced quote'],
      },
    },
    {
      id: 'header',
      title: 'merge panics when two files disagree on a column name case',
      issue: 'Merging shop_a.csv ("SKU") with shop_b.csv ("sku") panics with an index out of bounds.',
      fn: 'merge',
      buggy: `pub fn merge(files: &[Vec<Record>]) -> (Vec<String>, Vec<Record>) {\n    let mut header: Vec<String> = Vec::new();\n    for f in files {\n        for col in f.first().map(|r| r.keys().cloned().collect::<Vec<_>>()).unwrap_or_default() {\n            if !header.contains(&col) { header.push(col); }\n        }\n    }\n    let rows = files.iter().flatten().map(|r| header.iter().map(|h| (h.clone(), r[h].clone())).collect()).collect();\n    (header, rows)\n}\n`,
      fixed: `pub fn merge(files: &[Vec<Record>]) -> (Vec<String>, Vec<Record>) {\n    let mut header: Vec<String> = Vec::new();\n    for f in files {\n        for col in f.first().map(|r| r.keys().cloned().collect::<Vec<_>>()).unwrap_or_default() {\n            let col = col.to_lowercase();\n            if !header.contains(&col) { header.push(col); }\n        }\n    }\n    let rows = files.iter().flatten().map(|r| {\n        let lower: Record = r.iter().map(|(k, v)| (k.to_lowercase(), v.clone())).collect();\n        header.iter().map(|h| (h.clone(), lower.get(h).cloned().unwrap_or_default())).collect()\n    }).collect();\n    (header, rows)\n}\n`,
      failingTest: 'merge_header_case_insensitive',
      failure: [
        "thread 'tests::merge_header_case_insensitive' panicked at src/lib.rs:141:71:",
        'no entry found for key "sku"',
      ],
      cause: {
        statement:
          'merge indexed every record with r[h], which panics when a file lacks the exact column name, and column names were compared case-sensitively',
        cues: ['merge indexed every record', 'panics'],
      },
      fix: {
        statement:
          'merge now lower-cases column names and fills a missing column with an empty string instead of indexing',
        cues: ['lower-cases column names'],
      },
      regression: {
        name: 'merge_missing_column_no_panic',
        code: '#[test]\nfn merge_missing_column_no_panic() {\n    let (_, rows) = merge(&[vec![rec(&[("a", "1")])], vec![rec(&[("b", "2")])]]);\n    assert_eq!(rows[0]["b"], "");\n}\n',
      },
      assumption: {
        statement: 'Assuming downstream tools accept lower-case column names in the merged header.',
        claim: 'downstream tools accept lower-case column names in the merged header',
        cues: ['downstream tools accept lower-case column names'],
      },
    },
    {
      id: 'trailing',
      title: 'a trailing comma adds an empty column named ""',
      issue:
        'Files exported by the old POS end every line with a comma; the merged header gets an empty column and every row an extra field.',
      fn: 'split_fields',
      buggy: `fn split_fields(line: &str) -> Vec<String> {\n    let mut out = vec![String::new()];\n    let mut quoted = false;\n    for c in line.chars() {\n        match c {\n            '"' => quoted = !quoted,\n            ',' if !quoted => out.push(String::new()),\n            _ => out.last_mut().unwrap().push(c),\n        }\n    }\n    out\n}\n`,
      fixed: `fn split_fields(line: &str) -> Vec<String> {\n    let mut out = vec![String::new()];\n    let mut quoted = false;\n    for c in line.chars() {\n        match c {\n            '"' => quoted = !quoted,\n            ',' if !quoted => out.push(String::new()),\n            _ => out.last_mut().unwrap().push(c),\n        }\n    }\n    if line.ends_with(',') && out.last().is_some_and(|f| f.is_empty()) {\n        out.pop(); // old POS exports end every line with a comma\n    }\n    out\n}\n`,
      failingTest: 'parse_trailing_comma',
      failure: [
        "thread 'tests::parse_trailing_comma' panicked at src/lib.rs:230:9:",
        'assertion `left == right` failed',
        '  left: ["sku", "qty", ""]',
        ' right: ["sku", "qty"]',
      ],
      cause: {
        statement:
          'split_fields always started a new field after a comma, so a line ending in a comma produced an empty trailing field',
        cues: ['split_fields', 'empty trailing field'],
      },
      fix: {
        statement: 'split_fields now drops one empty field after a trailing comma',
        cues: ['drops one empty field after a trailing comma'],
      },
      regression: {
        name: 'parse_trailing_comma_quoted_empty_kept',
        code: '#[test]\nfn parse_trailing_comma_quoted_empty_kept() {\n    assert_eq!(split_fields("a,\\"\\""), vec!["a", ""]);\n}\n',
      },
      assumption: {
        statement:
          'Assuming no export uses a genuinely empty last column without quotes; that column would now be dropped.',
        claim: 'no export uses a genuinely empty last column without quotes',
        cues: ['genuinely empty last column'],
      },
    },
  ],
};
