//! The SQL both backends speak. The store's queries are written once, with
//! SQLite's `?N` placeholders and a few typed values ([`Arg`], [`Val`]); each
//! backend runs them its own way (PostgreSQL's client reads `?N` as `$N`).
//! Where the dialects differ, [`Dialect::pick`] chooses the text.

use crate::{Result, StoreError};

/// A query's parameter.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Arg<'a> {
    Null,
    Int(i64),
    Text(&'a str),
}

impl From<i64> for Arg<'_> {
    fn from(value: i64) -> Self {
        Arg::Int(value)
    }
}

impl From<u64> for Arg<'_> {
    fn from(value: u64) -> Self {
        Arg::Int(i64::try_from(value).unwrap_or(i64::MAX))
    }
}

impl From<u32> for Arg<'_> {
    fn from(value: u32) -> Self {
        Arg::Int(value.into())
    }
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(value: &'a str) -> Self {
        Arg::Text(value)
    }
}

impl<'a> From<&'a String> for Arg<'a> {
    fn from(value: &'a String) -> Self {
        Arg::Text(value)
    }
}

impl<'a, T: Into<Arg<'a>>> From<Option<T>> for Arg<'a> {
    fn from(value: Option<T>) -> Self {
        value.map_or(Arg::Null, Into::into)
    }
}

/// `args![a, b, …]`: the parameters of a query.
macro_rules! args {
    ($($arg:expr),* $(,)?) => { &[$($crate::sql::Arg::from($arg)),*] };
}
pub(crate) use args;

/// A value read back. Booleans come back as 0 or 1.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Val {
    Null,
    Int(i64),
    Text(String),
}

impl Val {
    /// The value as a parameter of another query (copying rows across).
    pub(crate) fn as_arg(&self) -> Arg<'_> {
        match self {
            Val::Null => Arg::Null,
            Val::Int(int) => Arg::Int(*int),
            Val::Text(text) => Arg::Text(text),
        }
    }
}

/// A row read back, its columns in the query's order.
#[derive(Debug)]
pub(crate) struct Row(pub(crate) Vec<Val>);

impl Row {
    fn column(&self, index: usize) -> Result<&Val> {
        self.0.get(index).ok_or_else(|| StoreError::Invalid(format!("a query has no column {index}")))
    }

    pub(crate) fn int(&self, index: usize) -> Result<i64> {
        match self.column(index)? {
            Val::Int(value) => Ok(*value),
            other => Err(StoreError::Invalid(format!("column {index}: expected an integer, found {other:?}"))),
        }
    }

    pub(crate) fn uint<T: TryFrom<i64>>(&self, index: usize) -> Result<T> {
        let value = self.int(index)?;
        T::try_from(value).map_err(|_| StoreError::Invalid(format!("column {index}: {value} is out of range")))
    }

    pub(crate) fn text(&self, index: usize) -> Result<String> {
        self.opt_text(index)?.ok_or_else(|| StoreError::Invalid(format!("column {index} is null")))
    }

    pub(crate) fn opt_text(&self, index: usize) -> Result<Option<String>> {
        match self.column(index)? {
            Val::Null => Ok(None),
            Val::Text(text) => Ok(Some(text.clone())),
            Val::Int(value) => Ok(Some(value.to_string())),
        }
    }
}

/// A connection, or a transaction on one.
pub(crate) trait Sql {
    /// Runs a statement; returns the rows it changed.
    fn execute(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<u64>;
    fn query(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<Vec<Row>>;
    /// Prepares a statement for a later `execute` or `query` of the same text.
    fn prepare(&mut self, sql: &str) -> Result<()>;

    fn query_row(&mut self, sql: &str, args: &[Arg<'_>]) -> Result<Option<Row>> {
        Ok(self.query(sql, args)?.into_iter().next())
    }
}

/// Work handed to a backend. It runs where the backend's connection lives
/// (PostgreSQL's client may run it on another thread), hence `Send`.
pub(crate) type Work<'w> = dyn FnMut(&mut dyn Sql) -> Result<()> + Send + 'w;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    Sqlite,
    Postgres,
}

impl Dialect {
    pub(crate) fn pick(self, sqlite: &'static str, postgres: &'static str) -> &'static str {
        match self {
            Dialect::Sqlite => sqlite,
            Dialect::Postgres => postgres,
        }
    }
}

/// Where a column's value comes from in a [`MultiInsert`]: a parameter every
/// row shares (`?1`, `?2`, …), or the row's own `n`th.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Col {
    Shared(usize),
    Own(usize),
}

/// `INSERT … VALUES (…), (…), …`: many rows in one statement. A statement
/// per row cost SQLite about 3.4 µs a row in binding, stepping and
/// resetting (and PostgreSQL a round trip each); a write of a long turn
/// has thousands of them. Rows go 32 to a statement, and what is left one
/// by one: two texts per table, and a short write (a turn of a few
/// events) prepares no statement it did not before.
pub(crate) struct MultiInsert {
    one: String,
    many: String,
    shared: usize,
    own: usize,
}

impl MultiInsert {
    const ROWS: usize = 32;

    /// `head` is `INSERT INTO t (a, b, …) VALUES`; `columns` follow its order.
    pub(crate) fn new(head: &str, shared: usize, columns: &[Col]) -> MultiInsert {
        let own = columns.iter().filter(|c| matches!(c, Col::Own(_))).count();
        let text = |rows: usize| {
            let tuples: Vec<String> = (0..rows)
                .map(|row| {
                    let params: Vec<String> = columns
                        .iter()
                        .map(|column| match *column {
                            Col::Shared(n) => format!("?{n}"),
                            Col::Own(n) => format!("?{}", shared + row * own + n + 1),
                        })
                        .collect();
                    format!("({})", params.join(", "))
                })
                .collect();
            format!("{head} {}", tuples.join(", "))
        };
        MultiInsert { one: text(1), many: text(Self::ROWS), shared, own }
    }

    /// The statement of a single row, which short writes run.
    pub(crate) fn one(&self) -> &str {
        &self.one
    }

    /// Inserts every row of `rows` (each `own` values long, in `Col::Own` order).
    pub(crate) fn run(&self, sql: &mut dyn Sql, shared: &[Arg<'_>], rows: &[Arg<'_>]) -> Result<()> {
        debug_assert_eq!(shared.len(), self.shared);
        debug_assert_eq!(rows.len() % self.own, 0);
        let mut args = Vec::with_capacity(self.shared + Self::ROWS * self.own);
        let width = Self::ROWS * self.own;
        let (many, rest) = rows.split_at(rows.len() / width * width);
        let statements = many.chunks_exact(width).map(|chunk| (&self.many, chunk));
        for (text, chunk) in statements.chain(rest.chunks_exact(self.own).map(|row| (&self.one, row))) {
            args.clear();
            args.extend_from_slice(shared);
            args.extend_from_slice(chunk);
            sql.execute(text, &args)?;
        }
        Ok(())
    }
}
