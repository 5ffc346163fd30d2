import { describe, expect, it } from 'vitest';
import { sqlTableReferences, sqlTables } from '../../src/bench/sqlTables.js';

const DB = ['singer', 'concert', 'singer_in_concert', 'stadium', 'Student', 'Has_Pet', 'Pets'];

describe('sqlTables', () => {
  it('reads joins with T1/T2 aliases, case-insensitively', () => {
    const sql =
      'SELECT T2.name FROM singer_in_concert AS T1 JOIN singer AS T2 ON T1.singer_id = T2.singer_id JOIN concert AS T3 ON T1.concert_id = T3.concert_id WHERE T3.year = 2014';
    expect(sqlTables(sql, DB)).toEqual({ tables: ['concert', 'singer', 'singer_in_concert'], unknown: [] });
    expect(sqlTables('select count(*) from STUDENT as t1 join has_pet as t2 on t1.stuid = t2.stuid', DB).tables).toEqual(['Has_Pet', 'Student']);
  });

  it('follows nested SELECTs and set operations', () => {
    const sql =
      "SELECT name FROM stadium WHERE stadium_id NOT IN (SELECT stadium_id FROM concert WHERE year = 2014) EXCEPT SELECT T2.name FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id";
    expect(sqlTables(sql, DB).tables).toEqual(['concert', 'stadium']);
    const inFrom = 'SELECT count(*) FROM (SELECT * FROM Pets AS p WHERE p.weight > 10) AS heavy';
    expect(sqlTables(inFrom, DB).tables).toEqual(['Pets']);
  });

  it('reads comma lists, alias without AS, and quoted names', () => {
    expect(sqlTables('SELECT * FROM singer s, concert c WHERE s.x = c.y', DB).tables).toEqual(['concert', 'singer']);
    expect(sqlTables('SELECT `name` FROM `Student` WHERE `Age` > 20', DB).tables).toEqual(['Student']);
    expect(sqlTables('SELECT [name] FROM [Has_Pet]', DB).tables).toEqual(['Has_Pet']);
    expect(sqlTables('SELECT name FROM main.stadium', DB).tables).toEqual(['stadium']);
  });

  it('ignores FROM/JOIN inside string literals and reports unknown names', () => {
    expect(sqlTables("SELECT name FROM singer WHERE note = 'from concert join stadium'", DB).tables).toEqual(['singer']);
    expect(sqlTables('SELECT * FROM singer JOIN nowhere ON 1 = 1', DB)).toEqual({ tables: ['singer'], unknown: ['nowhere'] });
  });

  it('lists raw references in order', () => {
    expect(sqlTableReferences('SELECT a FROM x AS T1 JOIN y AS T2 ON T1.id = T2.id')).toEqual(['x', 'y']);
  });
});
