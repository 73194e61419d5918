export type { ConformanceSubjects, NamedSubject } from './conformance-subjects.js';
export { type SubjectSuite, subjectSuites } from './subject-suites.js';
