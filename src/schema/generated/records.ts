// Generated from schema/*.json by `npm run schema:types` (src/schema/record-types.ts); do not edit.

/** The system fields every stored record carries. */
export type SystemFields = {
  _id: string
  _version: number
  _created_at: string
  _updated_at: string
}

/** Kind of degree */
export type DegreeType = 'BS' | 'BA' | 'Minor' | 'PhD' | 'MA' | 'MS' | 'Certificate'

/** Role of a user */
export type Role = 'admin' | 'faculty' | 'staff' | 'student' | 'user'

/** A permission a role, group or API key may hold */
export type Permission = 'read_people' | 'read_courses' | 'read_publications' | 'read_labs' | 'read_resources' | 'write_people' | 'write_courses' | 'write_publications' | 'write_labs' | 'write_resources' | 'manage_profiles' | 'manage_groups' | 'manage_jobs'

/** What happens to records the feed drops */
export type DeletePolicy = 'deactivate' | 'keep'

/** What a campus sync run covers */
export type SyncRunKind = 'courses' | 'sections' | 'people' | 'revert'

/** How a sync run ended */
export type SyncRunStatus = 'completed' | 'failed' | 'refused'

/** How a publication import run ended */
export type PublicationImportStatus = 'completed' | 'stopped'

/** Kind of faculty appointment */
export type AppointmentType = 'tenure_track' | 'research' | 'adjunct'

/** Where a planned course stands */
export type PlannedCourseStatus = 'planned' | 'enrolled' | 'completed'

/** Where an enrollment stands */
export type EnrollmentStatus = 'enrolled' | 'completed' | 'dropped' | 'withdrawn'

/** force: count toward the rule; exclude: never count toward it */
export type OverrideMode = 'force' | 'exclude'

/** all_of: every listed course; n_of: count courses; credits: min_credits from the listed or matching courses */
export type RuleType = 'all_of' | 'n_of' | 'credits'

/** Kind of shared resource */
export type ResourceType = 'equipment' | 'software' | 'dataset' | 'facility' | 'computing' | 'other'

/** The domains that run approval workflows */
export type WorkflowDomain = 'honors_thesis' | 'independent_research' | 'fellowships' | 'award_nominations' | 'major_plans' | 'graduate_milestones'

/** Who decides in a stage: the student's advisors (or the entity's advisor or supervisor), a committee, or the department admins */
export type ApprovalRole = 'advisor' | 'committee_member' | 'department_admin'

/** How many of a stage's approvers must approve: all, any one, or a quorum */
export type ApprovalPolicy = 'all' | 'any' | 'quorum'

/** Where a stage stands in the current round */
export type StageStatus = 'waiting' | 'active' | 'approved' | 'rejected' | 'skipped'

/** Where one approver stands in a stage */
export type ApprovalStatus = 'pending' | 'approved' | 'rejected' | 'revision_requested' | 'delegated'

/** Why an approver is asked: role (the stage's approver role), delegation, escalation (an overdue stage), override (an admin deciding with a written reason) */
export type ApprovalSource = 'role' | 'delegation' | 'escalation' | 'override'

/** Where a workflow entity stands; submitted while in review */
export type EntityStatus = 'draft' | 'submitted' | 'revision_requested' | 'approved' | 'rejected' | 'withdrawn'

/** Where a workflow instance stands; approved, rejected and withdrawn are final */
export type InstanceStatus = 'in_review' | 'approved' | 'rejected' | 'revision_requested' | 'withdrawn'

/** An action recorded in a workflow instance's history */
export type WorkflowAction = 'submit' | 'resubmit' | 'approve' | 'reject' | 'request_revision' | 'delegate' | 'withdraw' | 'override_approve' | 'override_reject' | 'override_request_revision' | 'due_soon' | 'overdue' | 'escalate' | 'voided'

/** A graduate milestone's progress (the interface spec's MilestoneStatus) */
export type MilestoneStatus = 'not_started' | 'in_progress' | 'submitted' | 'approved'

/** Kinds of graduate milestone */
export type MilestoneType = 'mentoring_form' | 'annual_review' | 'masters_thesis' | 'dissertation_proposal' | 'dissertation_defense'

/** A course in the department's catalog. */
export type Course = SystemFields & {
  type: 'Course'
  /** Where a campus sync got the record: the OneRoster system and the record's sourcedId there */
  source?: SyncSource
  /** False once the campus feed drops the record (deactivated, never deleted); absent means active */
  active?: boolean
  /** Subject letters and number, e.g. "CS 101" */
  course_code: string
  /** Course title */
  title: string
  /** Catalog description */
  description?: string
  /** Credit hours */
  credits?: number
  /** Courses to complete before this one (the id of the referenced Course) */
  prerequisites: string[]
}

/** One offering of a course in a term. */
export type Section = SystemFields & {
  type: 'Section'
  /** Where a campus sync got the record: the OneRoster system and the record's sourcedId there */
  source?: SyncSource
  /** False once the campus feed drops the record (deactivated, never deleted); absent means active */
  active?: boolean
  /** The course offered (the id of the referenced Course) */
  course: string
  /** Term code: two-digit year and a season letter (F fall, S spring, U summer, W winter), e.g. "25F" */
  term: string
  /** Section number within the term, e.g. "01" */
  section_number: string
  /** Faculty teaching the section (the id of the referenced Faculty) */
  instructors: string[]
  /** Maximum number of students */
  enrollment_cap?: number
  /** Meeting times, e.g. "MWF 10:00-10:50" */
  schedule?: string
  /** Room */
  location?: string
}

/** A degree or minor the department awards. */
export type Degree = SystemFields & {
  type: 'Degree'
  /** Degree name, e.g. "Computer Science" */
  name: string
  /** Kind of degree */
  degree_type: DegreeType
  /** What the degree is about */
  description?: string
  /** Credits needed to graduate */
  total_credits?: number
}

/** A graduate program, e.g. the PhD program in Computer Science. */
export type AcademicProgram = SystemFields & {
  type: 'AcademicProgram'
  /** Program name */
  name: string
  /** Degree the program leads to (the id of the referenced Degree) */
  degree?: string
  /** What the program is about */
  description?: string
  /** Usual length in years */
  expected_years?: number
  /** Faculty member directing the program (the id of the referenced Faculty) */
  director?: string
}

/** Someone who signs in to the service. Linked to a Person record by campus_id, else by email. */
export type User = SystemFields & {
  type: 'User'
  /** Email address */
  email: string
  /** Role; admin is never assigned by single sign-on */
  role: Role
  /** Institutional identifier (the NetID) */
  campus_id?: string
  /** Given name */
  first_name?: string
  /** Family name */
  last_name?: string
  /** Name to display */
  display_name?: string
  /** Affiliations reported by the identity provider */
  affiliation: string[]
  /** Organizational unit reported by the identity provider */
  department?: string
  /** Signed in through single sign-on at least once */
  saml_authenticated?: boolean
  /** When the role last changed */
  role_set_at?: string
  /** Last sign-in */
  last_login_at?: string
}

/** A set of users who share extra permissions. */
export type Group = SystemFields & {
  type: 'Group'
  /** Group name */
  name: string
  /** What the group is for */
  description?: string
  /** Permissions every member gains */
  permissions: Permission[]
  /** Users in the group (the id of the referenced User) */
  members: string[]
}

/** A key for programmatic read access to the catalog. Only a SHA-256 digest of the key is kept; the key itself is shown once, when created. */
export type ApiKey = SystemFields & {
  type: 'ApiKey'
  /** Label chosen by the owner */
  name: string
  /** User who created the key; the key never grants more than the owner currently holds (the id of the referenced User) */
  owner: string
  /** First characters of the key, shown to tell keys apart */
  prefix: string
  /** SHA-256 digest of the key, hex */
  key_hash: string
  /** Permissions granted to the key */
  permissions: Permission[]
  /** When the key stops working (at most 365 days after creation) */
  expires_at: string
  /** When the owner revoked the key */
  revoked_at?: string
  /** Last successful use (updated at most once a minute) */
  last_used_at?: string
}

/** Where a synced record comes from: the campus system and its id there. */
export type SyncSource = {
  /** The source system (a OneRoster feed or package) */
  system: string
  /** The record's OneRoster sourcedId */
  sourced_id: string
  /** A person's identifier in the feed when it is no campus id (OneRoster's identifier is free text) */
  identifier?: string
}

/** Where an imported publication comes from. */
export type PublicationSource = {
  /** The bibliographic index (openalex) */
  system: string
  /** The work id there, e.g. W2741809807 */
  id: string
  /** When it was last fetched */
  fetched_at: string
}

/** How campus sync reads the institution's OneRoster feed. Without one, the sample department's package is synced. */
export type SyncConfig = SystemFields & {
  type: 'SyncConfig'
  /** Which configuration ("campus") */
  name: string
  /** oneroster-rest or oneroster-csv */
  source_type: string
  /** Base URL of a OneRoster REST provider */
  url?: string
  /** OAuth 2.0 token endpoint of the provider (default: <url>/token) */
  token_url?: string
  /** Directory or zip of a OneRoster CSV package */
  path?: string
  /** OAuth 2.0 client id */
  client_id?: string
  /** OAuth 2.0 client secret, encrypted with SECRETS_KEY (never answered) */
  client_secret?: string
  /** Term codes to sync sections and enrollments of; empty means every term of the feed */
  terms: string[]
  /** deactivate: records the feed drops are marked inactive; keep: left as they are */
  delete_policy: DeletePolicy
  /** A run that would deactivate more of a kind than this share stops before writing */
  max_deactivate_percent: number
}

/** The newest dateLastModified a source reported for a collection: where its next delta run starts. */
export type SyncWatermark = SystemFields & {
  type: 'SyncWatermark'
  /** The source (a hash of its URL or path) */
  source_key: string
  /** The OneRoster collection */
  collection: string
  /** The watermark, as the source wrote it */
  value: string
}

/** One campus sync run and what it did. */
export type SyncRun = SystemFields & {
  type: 'SyncRun'
  /** courses, sections or people */
  kind: SyncRunKind
  /** The source system */
  system: string
  /** The term the run was narrowed to */
  term?: string
  /** True when the run only reported what it would change */
  dry_run: boolean
  /** completed, failed or refused (the mass-deactivation guard) */
  status: SyncRunStatus
  /** Why the run failed or was refused */
  message?: string
  /** When the run started */
  started_at: string
  /** When it ended */
  finished_at: string
  /** Records created */
  created: number
  /** Records updated */
  updated: number
  /** Records already as the feed says */
  unchanged: number
  /** Records marked inactive */
  deactivated: number
  /** Rows left out on purpose */
  skipped: number
  /** Rows reported and skipped (the first 1000) */
  errors: SyncRowError[]
  /** Rows the feed delivered */
  rows?: number
  /** True when every row is counted once: created, updated, unchanged, deactivated, skipped or in error */
  accounted?: boolean
  /** Rows that landed without a field they brought, and why (the first 1000) */
  warnings: SyncRowError[]
  /** On a revert: the run it undid (a SyncRun id, or import:<run> for a publication import) */
  reverts?: string
  /** The revert run that undid this run */
  reverted_by?: string
}

/** A feed row that could not be used. */
export type SyncRowError = {
  /** Its position in its collection */
  row: number
  /** Its sourcedId */
  sourced_id: string
  /** What is wrong with it */
  message: string
}

/** An imported publication someone deleted: later imports leave the work out. */
export type RejectedWork = SystemFields & {
  type: 'RejectedWork'
  /** The OpenAlex work id */
  work_id: string
  /** Its DOI, lower case */
  doi?: string
  /** Its title, for the record */
  title?: string
  /** When it was deleted */
  rejected_at: string
}

/** What the latest import of one person's works did: shown to the person, with the works imported without a field and why. */
export type PublicationImportResult = SystemFields & {
  type: 'PublicationImportResult'
  /** The person whose works were imported */
  person_id: string
  /** completed, stopped (the day's OpenAlex budget ran out) or failed */
  status: string
  /** When the person's part of the run ended */
  finished_at: string
  /** Publications created */
  created: number
  /** Publications updated */
  updated: number
  /** Works already as OpenAlex has them */
  unchanged: number
  /** Works left out because the person had deleted them */
  rejected: number
  /** Works imported without a field they brought, and why (the first 1000) */
  warnings: PublicationImportNote[]
  /** Works not imported, and why (the first 1000) */
  errors: PublicationImportNote[]
}

/** One publication import run and what it did; its outcome event rides in its insert. */
export type PublicationImportRun = SystemFields & {
  type: 'PublicationImportRun'
  /** The one person the run imported for; absent for a run over every faculty member */
  person_id?: string
  /** completed, or stopped (the day's OpenAlex budget ran out) */
  status: PublicationImportStatus
  /** When the run started */
  started_at: string
  /** When it ended */
  finished_at: string
  /** People whose works were imported */
  people: number
  /** Publications created */
  created: number
  /** Publications updated */
  updated: number
  /** Works already as OpenAlex has them */
  unchanged: number
  /** Works left out because someone had deleted them */
  rejected: number
  /** Works or people the run could not import (each person's own result says which, and why) */
  errors: number
}

/** One work an import could not take whole. */
export type PublicationImportNote = {
  /** The OpenAlex work id, when the note is about one work */
  work?: string
  /** What was wrong and what the import did */
  message: string
}

/** A member of the department: faculty, staff or student. */
export type Person = SystemFields & {
  type: 'Faculty' | 'Staff' | 'UndergraduateStudent' | 'GraduateStudent'
  /** Where a campus sync got the record: the OneRoster system and the record's sourcedId there */
  source?: SyncSource
  /** False once the campus feed drops the record (deactivated, never deleted); absent means active */
  active?: boolean
  /** Given name */
  first_name: string
  /** Family name */
  last_name: string
  /** Institutional email address */
  email?: string
  /** Institutional identifier (the NetID) */
  campus_id?: string
  /** Short biography shown on the profile page */
  bio?: string
  /** Degrees held, one line each (e.g. "PhD, Computer Science, MIT, 2009") */
  education: string[]
  /** Office location */
  office?: string
  /** Office phone number */
  phone?: string
  /** Personal web page */
  website?: string
  /** Address of a profile photo */
  profile_image?: string
}

/** A faculty member: tenure-track, research or adjunct. */
export type Faculty = Person & {
  type: 'Faculty'
  /** Academic title, e.g. Associate Professor */
  title?: string
  /** Kind of appointment */
  appointment_type?: AppointmentType
  /** Academic rank, e.g. Professor */
  rank?: string
  /** Main research area, used to group the faculty list */
  area?: string
  /** Research topics, one phrase each */
  research_interests: string[]
  /** Author id in the external bibliographic index (OpenAlex) */
  bibliography_source_id?: string
  /** Researcher registry id (ORCID) */
  researcher_registry_id?: string
}

/** A member of the department's administrative or technical staff. */
export type Staff = Person & {
  type: 'Staff'
  /** Job title */
  title?: string
  /** Office or unit within the department */
  unit?: string
}

/** A student of the department. Student records are visible only to admins, the student and their advisors. */
export type Student = Person & {
  type: 'UndergraduateStudent' | 'GraduateStudent'
  /** Faculty advising the student (the id of the referenced Faculty) */
  advisors: string[]
}

/** An undergraduate student. */
export type UndergraduateStudent = Student & {
  type: 'UndergraduateStudent'
  /** Expected graduation year */
  class_year?: number
  /** Degrees declared as majors; the first is audited by default (the id of the referenced Degree) */
  declared_majors: string[]
  /** Degrees declared as minors (the id of the referenced Degree) */
  declared_minors: string[]
}

/** A graduate student (master's or doctoral). */
export type GraduateStudent = Student & {
  type: 'GraduateStudent'
  /** Graduate program the student is in (the id of the referenced AcademicProgram) */
  program?: string
  /** Year of study within the program, starting at 1 */
  year_in_program?: number
  /** Faculty on the student's committee (the id of the referenced Faculty) */
  committee: string[]
}

/** A student's academic plan: the courses they intend to take, term by term, toward a degree. */
export type StudentPlan = SystemFields & {
  type: 'StudentPlan'
  /** The student the plan belongs to (the id of the referenced Student) */
  student: string
  /** Name of the plan, e.g. "Main plan" */
  plan_name: string
  /** Degree the plan aims at (the id of the referenced Degree) */
  target_degree: string
  /** Courses planned, each with a term */
  planned_courses: PlannedCourse[]
  /** When a major-plan approval of this plan was approved; set by the workflow */
  approved_at?: string
  /** The major-plan approval that approved this plan; set by the workflow (the id of the referenced MajorPlanApproval) */
  approval?: string
  /** The major-plan approval reviewing this plan, or that last did; set by the workflow when the plan is submitted (the id of the referenced MajorPlanApproval) */
  review?: string
}

/** A course in a plan. */
export type PlannedCourse = {
  /** The course (the id of the referenced Course) */
  course: string
  /** Term code, e.g. "26S" */
  term: string
  /** planned, enrolled or completed */
  status?: PlannedCourseStatus
}

/** A student's enrollment in a course in one term, with its grade. Protected: reachable only through the student record endpoints, section rosters and admin writes. */
export type Enrollment = SystemFields & {
  type: 'Enrollment'
  /** Where a campus sync got the record: the OneRoster system and the record's sourcedId there */
  source?: SyncSource
  /** False once the campus feed drops the record (deactivated, never deleted); absent means active */
  active?: boolean
  /** The student (the id of the referenced Student) */
  student: string
  /** The course (the id of the referenced Course) */
  course: string
  /** The section attended (the id of the referenced Section) */
  section?: string
  /** Term code, e.g. "25F" */
  term: string
  /** Where the enrollment stands */
  status: EnrollmentStatus
  /** Credits attempted */
  credits?: number
  /** Letter grade, once given */
  grade?: string
  /** Grade points per credit for the grade (A = 4.0) */
  grade_points?: number
  /** Advisor decisions that force or exclude a requirement rule for this course */
  allocation_overrides: AllocationOverride[]
}

/** Forces an enrollment onto a requirement rule, or keeps it off one. */
export type AllocationOverride = {
  /** The requirement rule (the id of the referenced RequirementRule) */
  rule: string
  /** force or exclude */
  mode: OverrideMode
}

/** A named part of a degree's requirements, e.g. "Core courses", made of rules. */
export type RequirementGroup = SystemFields & {
  type: 'RequirementGroup'
  /** Group name */
  name: string
  /** Degree the group belongs to (the id of the referenced Degree) */
  degree: string
  /** Position of the group within the degree, lowest first */
  order?: number
  /** What the group asks of a student */
  description?: string
  /** Rules of the group, in order (the id of the referenced RequirementRule) */
  rules: string[]
}

/** One requirement: complete all of some courses, n of them, or a number of credits. */
export type RequirementRule = SystemFields & {
  type: 'RequirementRule'
  /** Rule name shown in audits */
  name: string
  /** How the rule is satisfied */
  rule_type: RuleType
  /** Courses that count toward the rule (the id of the referenced Course) */
  courses: string[]
  /** Courses that count by subject and level, besides the listed ones */
  course_pattern?: CoursePattern
  /** Number of courses needed (n_of) */
  count?: number
  /** Credits needed (credits) */
  min_credits?: number
  /** Lowest letter grade that counts, e.g. "C" */
  min_grade?: string
  /** A course counted here may also count toward another rule */
  allow_shared?: boolean
  /** Explanation shown to students */
  description?: string
}

/** Courses chosen by subject and level, e.g. CS courses numbered 300 to 499. */
export type CoursePattern = {
  /** Subject letters of the course code, e.g. "CS" */
  subject: string
  /** Lowest course number that counts */
  min_level?: number
  /** Highest course number that counts */
  max_level?: number
}

/** A research lab led by a principal investigator. */
export type Lab = SystemFields & {
  type: 'Lab'
  /** Lab name */
  name: string
  /** What the lab works on */
  description?: string
  /** Principal investigator (the id of the referenced Faculty) */
  pi: string
  /** People working in the lab (the id of the referenced Person) */
  members: string[]
  /** Lab web page */
  website?: string
  /** Research center the lab belongs to (the id of the referenced ResearchCenter) */
  research_center?: string
  /** Building and room */
  location?: string
}

/** An interdisciplinary research center that groups labs and faculty. */
export type ResearchCenter = SystemFields & {
  type: 'ResearchCenter'
  /** Center name */
  name: string
  /** Mission of the center */
  description?: string
  /** Faculty member directing the center (the id of the referenced Faculty) */
  director?: string
  /** Affiliated faculty (the id of the referenced Faculty) */
  faculty: string[]
  /** Center web page */
  website?: string
  /** Year the center was founded */
  established_year?: number
}

/** Equipment, software, data or a facility that department members may use. */
export type Resource = SystemFields & {
  type: 'Resource'
  /** Resource name */
  name: string
  /** Kind of resource */
  resource_type: ResourceType
  /** What it is and what it is for */
  description?: string
  /** Lab that owns the resource (the id of the referenced Lab) */
  lab?: string
  /** Person to ask for access (the id of the referenced Person) */
  contact?: string
  /** Where it is */
  location?: string
  /** Web page or booking address */
  url?: string
  /** Who may use it and how to get access */
  access_policy?: string
}

/** A paper, book or other publication by members of the department. */
export type Publication = SystemFields & {
  type: 'Publication'
  /** Title */
  title: string
  /** Author names in the order printed */
  authors: string[]
  /** Journal, conference or publisher */
  venue?: string
  /** Year of publication */
  year?: number
  /** Digital Object Identifier, e.g. 10.1145/3290605.3300233 */
  doi?: string
  /** Citations counted by the bibliographic index */
  citation_count?: number
  /** Department members among the authors (the id of the referenced Person) */
  dept_authors: string[]
  /** Abstract */
  abstract?: string
  /** Where to read it */
  url?: string
  /** Work id in the bibliographic index (OpenAlex) */
  source_id?: string
  /** Where an import got the publication: the index, the work id and when it was fetched */
  source?: PublicationSource
  /** When citation_count was last refreshed from the index */
  citations_updated_at?: string
  /** Fields a person changed by hand; a later import leaves them as they are */
  edited_fields: string[]
}

/** A versioned approval workflow definition of one domain: its stages, in order. A definition in use is never changed in place; an update makes a new version. */
export type Workflow = SystemFields & {
  type: 'Workflow'
  /** The domain whose entities run through this workflow */
  domain: WorkflowDomain
  /** Name of the workflow */
  name: string
  /** Version of the definition, from 1; instances keep the version they started with */
  version: number
  /** What the workflow is for */
  description?: string
  /** The stages, in the order they run */
  stages: WorkflowStage[]
}

/** One stage of a workflow definition: who decides, and how many of them must approve. */
export type WorkflowStage = {
  /** Identifier of the stage within the workflow, e.g. "advisor" */
  key: string
  /** Name of the stage shown to people */
  name: string
  /** Who decides: the student's advisors, a committee, or the department admins */
  approver_role: ApprovalRole
  /** For committee stages: the group whose members decide (fellowship and award committees); without it, the graduate student's committee (the id of the referenced Group) */
  group?: string
  /** all: every approver approves; any: one approval is enough; quorum: `quorum` approvals */
  policy: ApprovalPolicy
  /** Approvals needed, with policy quorum */
  quorum?: number
  /** Days an approver has to decide once the stage is active */
  due_in_days?: number
}

/** One entity's run through a workflow: its stages, their approvals and every action taken. Updated only by a conditional write on _version. */
export type WorkflowInstance = SystemFields & {
  type: 'WorkflowInstance'
  /** The workflow definition the instance runs (the id of the referenced Workflow) */
  workflow: string
  /** Version of the definition when the instance started */
  workflow_version: number
  /** Domain of the entity */
  domain: WorkflowDomain
  /** The entity under review (the id of the referenced WorkflowEntity) */
  entity: string
  /** Id of the person or user who submitted the entity */
  submitter: string
  /** Ids of people who may not decide on this instance besides the submitter: whom the entity is about (student, applicant, nominee) and a nomination's nominator */
  excluded: string[]
  /** Where the instance stands */
  status: InstanceStatus
  /** Review round, from 1; each resubmission after a revision request starts the next one */
  round: number
  /** Key of the stage under way, or where the instance stopped */
  current_stage: string
  /** The stages of the definition, in order, with their approvals of every round */
  stages: StageInstance[]
  /** Every action taken on the instance, oldest first */
  history: WorkflowHistoryEntry[]
}

/** A stage of a workflow instance. Its outcome is computed from its approvals of the current round, never kept as a counter. */
export type StageInstance = {
  /** Key of the stage in the definition */
  key: string
  /** Where the stage stands in the current round */
  status: StageStatus
  /** One approval per approver asked, of every round */
  approvals?: StageApproval[]
  /** When the stage became active in the current round */
  activated_at?: string
  /** When its approvers should have decided: activated_at plus the stage's due_in_days */
  due_at?: string
  /** When the department admins were added to the overdue stage */
  escalated_at?: string
}

/** One approver's part in one stage and round: asked (pending), decided, or handed to a delegate. */
export type StageApproval = {
  /** Id of the person or user asked to decide */
  approver: string
  /** Where this approver stands */
  status: ApprovalStatus
  /** Why this approver is asked: the stage's role, a delegation, an escalation, or an admin's override */
  source: ApprovalSource
  /** The review round the approval belongs to */
  round: number
  /** For a delegate: the approver who delegated */
  on_behalf_of?: string
  /** When the approver decided or delegated */
  decided_at?: string
  /** The approver's comment */
  comment?: string
  /** Still pending past the stage's due_at */
  overdue?: boolean
}

/** One action taken on a workflow instance. */
export type WorkflowHistoryEntry = {
  /** When the action was taken */
  at: string
  /** Id of the person or user who acted (system for the maintenance job) */
  actor: string
  /** For a delegate's decision: the approver who delegated */
  on_behalf_of?: string
  /** What was done */
  action: WorkflowAction
  /** Key of the stage acted on */
  stage?: string
  /** The review round */
  round: number
  /** Comment or written reason given with the action */
  comment?: string
  /** For a delegation: the delegate */
  delegate_to?: string
}

/** Something submitted for approval through a workflow. Protected: served only by its domain's routes, never by generic routes, search or the shared response cache. */
export type WorkflowEntity = SystemFields & {
  type: 'ThesisRequest' | 'IndependentResearchRequest' | 'FellowshipApplication' | 'AwardNomination' | 'MajorPlanApproval' | 'GraduateMilestone'
  /** Where the entity stands: draft until submitted, submitted while in review */
  status: EntityStatus
}

/** An undergraduate's request to write an honors thesis. */
export type ThesisRequest = WorkflowEntity & {
  type: 'ThesisRequest'
  /** The student writing the thesis (the id of the referenced UndergraduateStudent) */
  student: string
  /** Faculty member advising the thesis (the id of the referenced Faculty) */
  advisor: string
  /** Faculty member reading the thesis as second reader (the id of the referenced Faculty) */
  second_reader?: string
  /** Working title */
  title: string
  /** What the thesis is about */
  abstract: string
  /** Term the thesis starts, e.g. "25F" */
  term: string
}

/** A student's request to earn credit for independent research under a faculty supervisor. */
export type IndependentResearchRequest = WorkflowEntity & {
  type: 'IndependentResearchRequest'
  /** The student doing the research (the id of the referenced Student) */
  student: string
  /** Faculty member supervising the research; decides in the advisor stage (the id of the referenced Faculty) */
  supervisor: string
  /** Term of the research, e.g. "26S" */
  term: string
  /** Credits sought */
  credits: number
  /** Title of the project */
  title: string
  /** What the student will do and produce */
  description: string
}

/** An application for a fellowship, made by the applicant for themselves. */
export type FellowshipApplication = WorkflowEntity & {
  type: 'FellowshipApplication'
  /** The person applying (the id of the referenced Person) */
  applicant: string
  /** Name of the fellowship */
  fellowship: string
  /** The applicant's statement */
  statement: string
  /** Amount of money requested, if the fellowship asks for one */
  amount_requested?: number
}

/** A nomination of someone for an award, made by faculty or staff. The nominator never decides on it. */
export type AwardNomination = WorkflowEntity & {
  type: 'AwardNomination'
  /** The person nominated (the id of the referenced Person) */
  nominee: string
  /** The person who made the nomination (the id of the referenced Person) */
  nominator: string
  /** Name of the award */
  award: string
  /** Why the nominee deserves the award */
  statement: string
}

/** A student's academic plan submitted for approval toward a degree; approval marks the plan approved. */
export type MajorPlanApproval = WorkflowEntity & {
  type: 'MajorPlanApproval'
  /** The plan submitted (the id of the referenced StudentPlan) */
  plan: string
  /** The student whose plan it is (the id of the referenced Student) */
  student: string
  /** The degree the plan leads to (the id of the referenced Degree) */
  degree: string
}

/** A step of a graduate student's program that needs approval: a mentoring form, an annual review, a thesis, a dissertation proposal or defense. */
export type GraduateMilestone = WorkflowEntity & {
  type: 'GraduateMilestone'
  /** The graduate student (the id of the referenced GraduateStudent) */
  student: string
  /** Which milestone this is */
  milestone_type: MilestoneType
  /** The milestone's progress: not_started, in_progress (first edit), submitted, approved */
  milestone_status: MilestoneStatus
  /** Title of the milestone, e.g. the dissertation's */
  title: string
  /** Date the milestone is due */
  due_date?: string
  /** Links to the milestone's documents */
  documents: string[]
}

/** An approval recorded by a domain's system before the shared workflow engine: read-only history, shown in its entity's history. */
export type LegacyApproval = SystemFields & {
  type: 'LegacyApproval'
  /** The entity the approval was about (the id of the referenced WorkflowEntity) */
  entity: string
  /** Domain of the entity */
  domain: WorkflowDomain
  /** Id of the person or user who decided */
  approver: string
  /** What they decided */
  decision: ApprovalStatus
  /** When they decided */
  decided_at: string
  /** Name of the step in the old system */
  stage?: string
  /** The approver's comment */
  comment?: string
  /** The system the record was imported from */
  source?: string
}

/** Every class whose records have an id, by name; an abstract class's record is any of its subclasses'. */
export interface RecordTypes {
  AcademicProgram: AcademicProgram
  ApiKey: ApiKey
  AwardNomination: AwardNomination
  Course: Course
  Degree: Degree
  Enrollment: Enrollment
  Faculty: Faculty
  FellowshipApplication: FellowshipApplication
  GraduateMilestone: GraduateMilestone
  GraduateStudent: GraduateStudent
  Group: Group
  IndependentResearchRequest: IndependentResearchRequest
  Lab: Lab
  LegacyApproval: LegacyApproval
  MajorPlanApproval: MajorPlanApproval
  Person: Faculty | Staff | UndergraduateStudent | GraduateStudent
  Publication: Publication
  PublicationImportResult: PublicationImportResult
  PublicationImportRun: PublicationImportRun
  RejectedWork: RejectedWork
  RequirementGroup: RequirementGroup
  RequirementRule: RequirementRule
  ResearchCenter: ResearchCenter
  Resource: Resource
  Section: Section
  Staff: Staff
  Student: UndergraduateStudent | GraduateStudent
  StudentPlan: StudentPlan
  SyncConfig: SyncConfig
  SyncRun: SyncRun
  SyncWatermark: SyncWatermark
  ThesisRequest: ThesisRequest
  UndergraduateStudent: UndergraduateStudent
  User: User
  Workflow: Workflow
  WorkflowEntity: ThesisRequest | IndependentResearchRequest | FellowshipApplication | AwardNomination | MajorPlanApproval | GraduateMilestone
  WorkflowInstance: WorkflowInstance
}
