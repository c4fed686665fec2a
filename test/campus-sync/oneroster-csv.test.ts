import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { openPackage } from '../../src/campus-sync/oneroster/csv.js'
import { OneRosterPackageError } from '../../src/campus-sync/oneroster/errors.js'
import type { OneRosterPackage } from '../../src/campus-sync/oneroster/csv.js'
import type { Collection, RowOf } from '../../src/domain/campus-sync/model.js'
import { tempDir } from '../helpers/temp-dir.js'
import { storedZip } from '../helpers/stored-zip.js'

const crlf = (lines: string[]) => lines.join('\r\n') + '\r\n'
const bom = '\uFEFF'

/** A 1.2 bulk package as SIS exports write it: BOM, CRLF, quoted commas and line breaks, roles.csv. */
const package12: Record<string, string> = {
  'manifest.csv': crlf(['propertyName,value', 'manifest.version,1.0', 'oneroster.version,1.2', 'file.academicSessions,bulk', 'file.courses,bulk', 'file.classes,bulk', 'file.users,bulk', 'file.enrollments,bulk', 'file.roles,bulk', 'file.orgs,absent']),
  'academicSessions.csv': bom + crlf(['sourcedId,status,dateLastModified,title,type,startDate,endDate,parentSourcedId,schoolYear', 't25f,,,Fall 2025,term,2025-08-25,2025-12-15,,2026']),
  'courses.csv': bom + crlf([
    'sourcedId,status,dateLastModified,schoolYearSourcedId,title,courseCode,grades,orgSourcedId,subjects,subjectCodes',
    'c1,,,,"Data Structures, Algorithms",CS 201,"13,PS",dept,,',
    'c2,,,,"Intro to\r\nComputing",CS 101,13,dept,,',
  ]),
  'classes.csv': crlf(['sourcedId,status,dateLastModified,title,grades,courseSourcedId,classCode,classType,location,schoolSourcedId,termSourcedIds,subjects,subjectCodes,periods', 'k1,,,CS 201 01,,c1,01,scheduled,"Hall 2, Room 5",dept,t25f,,,']),
  'users.csv': bom + crlf([
    'sourcedId,status,dateLastModified,enabledUser,username,userIds,givenName,familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password,userMasterIdentifier,resourceSourcedIds,preferredGivenName,preferredMiddleName,preferredFamilyName,primaryOrgSourcedId,pronouns',
    'p1,,,true,ada,,Ada,"Lovelace, Countess",,net-ada,ada@example.edu,,,,,,,,,,,dept,',
    's1,,,true,bo,,Bø,Ng,,net-bo,bo@example.edu,,,,GR,,,,,,,dept,',
  ]),
  'roles.csv': crlf(['sourcedId,status,dateLastModified,userSourcedId,roleType,role,beginDate,endDate,orgSourcedId,userProfileSourcedId', 'r1,,,p1,primary,teacher,,,dept,', 'r2,,,s1,primary,student,,,dept,', 'r3,,,s1,secondary,aide,,,dept,']),
  'enrollments.csv': crlf(['sourcedId,status,dateLastModified,classSourcedId,schoolSourcedId,userSourcedId,role,primary,beginDate,endDate', 'e1,,,k1,dept,p1,teacher,true,,', 'e2,,,k1,dept,s1,student,false,,']),
}

/** The same department exported as 1.1: the role is a users.csv column, no roles.csv, no version in the manifest. */
const package11: Record<string, string> = {
  'manifest.csv': crlf(['propertyName,value', 'manifest.version,1.0', 'file.users,delta', 'file.classes,bulk']),
  'users.csv': crlf(['sourcedId,status,dateLastModified,enabledUser,orgSourcedIds,role,username,userIds,givenName,familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password', 'p1,active,2025-09-01T10:00:00Z,true,dept,teacher,ada,,Ada,Lovelace,,net-ada,ada@example.edu,,,,,', 's1,tobedeleted,2025-09-02T10:00:00Z,false,"dept,other",student,bo,,Bo,Ng,,net-bo,,,,,"09,10",']),
  'classes.csv': crlf(['sourcedId,status,dateLastModified,title,grades,courseSourcedId,classCode,classType,location,schoolSourcedId,termSourcedIds,subjects,subjectCodes,periods', 'k1,,,CS 201 01,,c1,01,scheduled,,dept,"t25f,t26s",,,']),
}

async function writeDir(dir: string, files: Record<string, string>): Promise<string> {
  await mkdir(dir, { recursive: true })
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content)
  return dir
}

async function all<C extends Collection>(pkg: OneRosterPackage, collection: C, pageSize?: number): Promise<RowOf[C][]> {
  const rows: RowOf[C][] = []
  for await (const page of pkg.pages(collection, pageSize)) rows.push(...page.rows)
  return rows
}

t.test('a 1.2 package from a directory: manifest modes, BOM, CRLF, quoted commas and line breaks, roles.csv', async (t) => {
  const pkg = await openPackage(await writeDir(join(await tempDir(t), 'pkg'), package12))
  t.equal(pkg.version, '1.2')
  t.same(pkg.modes, { academicSessions: 'bulk', courses: 'bulk', classes: 'bulk', users: 'bulk', enrollments: 'bulk' })
  const courses = await all(pkg, 'courses')
  t.same(courses.map((c) => [c.row, c.sourcedId, c.status, c.title, c.courseCode, c.grades]), [
    [1, 'c1', 'active', 'Data Structures, Algorithms', 'CS 201', ['13', 'PS']],
    [2, 'c2', 'active', 'Intro to\r\nComputing', 'CS 101', ['13']],
  ])
  const [klass] = await all(pkg, 'classes')
  t.match(klass, { sourcedId: 'k1', courseSourcedId: 'c1', classCode: '01', location: 'Hall 2, Room 5', termSourcedIds: ['t25f'] })
  const users = await all(pkg, 'users')
  t.match(users[0], { sourcedId: 'p1', givenName: 'Ada', familyName: 'Lovelace, Countess', identifier: 'net-ada', enabledUser: true })
  t.same(users[0]!.roles, [{ role: 'teacher', roleType: 'primary', orgSourcedId: 'dept' }])
  t.same(users[1]!.roles.map((r) => [r.role, r.roleType]), [['student', 'primary'], ['aide', 'secondary']])
  t.same(users[1]!.grades, ['GR'])
  t.equal(users[1]!.givenName, 'Bø')
  const enrollments = await all(pkg, 'enrollments')
  t.same(enrollments.map((e) => [e.sourcedId, e.userSourcedId, e.classSourcedId, e.role, e.primary]), [['e1', 'p1', 'k1', 'teacher', true], ['e2', 's1', 'k1', 'student', false]])
  const [session] = await all(pkg, 'academicSessions')
  t.match(session, { sourcedId: 't25f', type: 'term', startDate: '2025-08-25', endDate: '2025-12-15' })
})

t.test('pages of a file hold pageSize rows with running row numbers', async (t) => {
  const pkg = await openPackage(await writeDir(join(await tempDir(t), 'pkg'), package12))
  const pages = []
  for await (const page of pkg.pages('courses', 1)) pages.push([page.offset, page.rows.map((r) => r.row)])
  t.same(pages, [[0, [1]], [1, [2]]])
})

t.test('a 1.1 package from a zip: version told by the role column, delta rows keep status and dates', async (t) => {
  const dir = await tempDir(t)
  const zipPath = join(dir, 'export.zip')
  // Some exports put every file inside one folder of the zip.
  await writeFile(zipPath, storedZip(Object.fromEntries(Object.entries(package11).map(([name, body]) => [`export/${name}`, body]))))
  const pkg = await openPackage(zipPath)
  t.equal(pkg.version, '1.1')
  t.same(pkg.modes, { academicSessions: 'absent', courses: 'absent', classes: 'bulk', users: 'delta', enrollments: 'absent' })
  const users = await all(pkg, 'users')
  t.same(users.map((u) => [u.sourcedId, u.status, u.dateLastModified, u.enabledUser, u.roles]), [
    ['p1', 'active', '2025-09-01T10:00:00Z', true, [{ role: 'teacher', roleType: 'primary', orgSourcedId: 'dept' }]],
    ['s1', 'tobedeleted', '2025-09-02T10:00:00Z', false, [{ role: 'student', roleType: 'primary', orgSourcedId: 'dept' }]],
  ])
  t.same(users[1]!.grades, ['09', '10'])
  t.same((await all(pkg, 'classes'))[0]!.termSourcedIds, ['t25f', 't26s'])
  t.same(await all(pkg, 'courses'), [], 'an absent file yields nothing')
})

t.test('the manifest version wins over the columns; a 1.2 package without version is told by roles.csv', async (t) => {
  const dir = await tempDir(t)
  const declared = await openPackage(await writeDir(join(dir, 'a'), { ...package11, 'manifest.csv': package11['manifest.csv']!.replace('manifest.version,1.0', 'oneroster.version,1.2') }))
  t.equal(declared.version, '1.2')
  const undeclared = await openPackage(await writeDir(join(dir, 'b'), { ...package12, 'manifest.csv': package12['manifest.csv']!.replace('oneroster.version,1.2\r\n', '') }))
  t.equal(undeclared.version, '1.2')
  t.equal((await all(undeclared, 'users'))[0]!.roles[0]!.role, 'teacher')
})

t.test('a package that cannot be read is refused with a message naming the problem', async (t) => {
  const dir = await tempDir(t)
  const { 'manifest.csv': _manifest, ...noManifest } = package12
  await t.rejects(openPackage(await writeDir(join(dir, 'a'), noManifest)), new OneRosterPackageError('The package has no manifest.csv'))
  const { 'users.csv': _users, ...noUsers } = package12
  await t.rejects(openPackage(await writeDir(join(dir, 'b'), noUsers)), { message: 'manifest.csv lists users.csv as bulk but the package has no such file' })
  await t.rejects(openPackage(await writeDir(join(dir, 'c'), { ...package12, 'manifest.csv': 'propertyName,value\r\nfile.users,sometimes\r\n' })), { message: /file\.users is "sometimes"/ })
  await t.rejects(openPackage(join(dir, 'missing')), { message: /No OneRoster package/ })
  await writeFile(join(dir, 'broken.zip'), 'PK not really')
  await t.rejects(openPackage(join(dir, 'broken.zip')), OneRosterPackageError)
  await writeFile(join(dir, 'big.zip'), storedZip({ ...package12, 'users.csv': 'x'.repeat(5000) }))
  await t.rejects(openPackage(join(dir, 'big.zip'), { maxFileBytes: 4000, maxTotalBytes: 100_000 }), { message: /users\.csv .*cap/ })
})

t.test('a row with a missing or extra cell is still read, for the validator to report', async (t) => {
  const dir = await tempDir(t)
  const pkg = await openPackage(await writeDir(join(dir, 'a'), { ...package12, 'courses.csv': 'sourcedId,status,dateLastModified,schoolYearSourcedId,title,courseCode\nc1,,,,Only title\n,,,,No id,CS 9,extra\n' }))
  const courses = await all(pkg, 'courses')
  t.same(courses.map((c) => [c.row, c.sourcedId, c.title, c.courseCode]), [[1, 'c1', 'Only title', undefined], [2, '', 'No id', 'CS 9']])
})
