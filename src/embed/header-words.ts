/** The built-in embedder's word lists; its header words come from src/text (`splitHeaderWords`). */

/** Common header abbreviations, expanded before lemmatising so `cust_qty` meets `customer quantity`. */
export const ABBREVIATIONS: Readonly<Record<string, string>> = {
  acct: 'account', addr: 'address', amt: 'amount', avg: 'average', cat: 'category', cnt: 'count',
  ctry: 'country', cust: 'customer', dept: 'department', desc: 'description', dob: 'birth date',
  dt: 'date', emp: 'employee', fname: 'first name', lname: 'last name', mgr: 'manager',
  nbr: 'number', num: 'number', nr: 'number', pct: 'percent', qty: 'quantity', tel: 'phone',
  ts: 'timestamp', yr: 'year',
};

/** Function words dropped from headers and questions (unless nothing else is left). */
export const STOPWORDS: ReadonlySet<string> = new Set(
  ('a an and any are as at be been by can could did do does for from had has have how i if in into ' +
    'is it its me my of on or our show than that the their them there these they this those to ' +
    'us was we were what when where which who whom whose why will with would you your give find')
    .split(' '),
);
