/**
 * The department's course template. Each scale unit gets one copy with its own subject codes; prerequisites
 * always point at lower-numbered courses, so the catalog is acyclic by construction.
 */

export type Area = 'intro' | 'systems' | 'theory' | 'ai' | 'hci' | 'security' | 'data' | 'pl' | 'math' | 'stats' | 'research'

/** E: every fall and spring; F or S: that season only, and an elective that may skip a year when rooms run short. */
export type Offering = 'E' | 'F' | 'S'

export interface CourseTemplate {
  readonly subject: string
  readonly number: number
  readonly title: string
  readonly credits: number
  readonly area: Area
  readonly offered: Offering
  readonly prerequisites: readonly string[]
  readonly topics: string
  /** Graded pass/fail. */
  readonly passFail?: boolean
  /** May be taken in several terms (research credit). */
  readonly repeatable?: boolean
}

type Flags = Pick<CourseTemplate, 'passFail' | 'repeatable'>

function course(code: string, title: string, credits: number, area: Area, offered: Offering, prerequisites: string[], topics: string, flags: Flags = {}): CourseTemplate {
  const [subject, number] = code.split(' ')
  return { subject: subject!, number: Number(number), title, credits, area, offered, prerequisites, topics, ...flags }
}

export const courseTemplates: readonly CourseTemplate[] = [
  course('CS 101', 'Introduction to Programming', 4, 'intro', 'E', [], 'variables, control flow, functions, recursion and testing'),
  course('CS 102', 'Data Structures', 4, 'intro', 'E', ['CS 101'], 'lists, trees, hash tables, graphs and the analysis of their operations'),
  course('CS 110', 'Computing in Context', 3, 'intro', 'E', [], 'how computing shapes science, work and society, with hands-on programming'),
  course('CS 120', 'Introduction to Data Science', 3, 'data', 'E', [], 'collecting, cleaning, exploring and visualizing data with notebooks'),
  course('CS 190', 'First-Year Seminar in Computing', 1, 'intro', 'F', [], 'research talks, careers and study skills for new students', { passFail: true }),
  course('CS 201', 'Computer Organization', 4, 'systems', 'E', ['CS 102'], 'data representation, assembly language, processors and memory hierarchies'),
  course('CS 215', 'Discrete Structures', 3, 'theory', 'E', ['CS 101'], 'logic, proofs, sets, relations, counting and graphs'),
  course('CS 220', 'Software Construction', 3, 'pl', 'E', ['CS 102'], 'design, version control, testing and working in teams'),
  course('CS 240', 'Systems Programming', 4, 'systems', 'E', ['CS 201'], 'C, processes, memory management, files and concurrency'),
  course('CS 250', 'Web Development', 3, 'hci', 'F', ['CS 101'], 'HTML, CSS, client scripting, web services and accessibility'),
  course('CS 260', 'Mobile App Development', 3, 'hci', 'S', ['CS 220'], 'mobile platforms, interface design, sensors and offline data'),
  course('CS 301', 'Algorithms', 4, 'theory', 'E', ['CS 102', 'CS 215'], 'divide and conquer, dynamic programming, greedy algorithms and NP-completeness'),
  course('CS 310', 'Operating Systems', 4, 'systems', 'E', ['CS 240'], 'processes, scheduling, virtual memory, file systems and synchronization'),
  course('CS 320', 'Programming Languages', 3, 'pl', 'F', ['CS 215', 'CS 220'], 'syntax, semantics, type systems and functional programming'),
  course('CS 330', 'Databases', 3, 'data', 'E', ['CS 102'], 'the relational model, SQL, query processing and transactions'),
  course('CS 340', 'Computer Networks', 3, 'systems', 'S', ['CS 240'], 'protocols, routing, congestion control and network programming'),
  course('CS 345', 'Cloud Computing', 3, 'systems', 'F', ['CS 240'], 'virtualization, containers, elastic services and cost'),
  course('CS 350', 'Theory of Computation', 3, 'theory', 'S', ['CS 215'], 'automata, grammars, computability and complexity'),
  course('CS 360', 'Artificial Intelligence', 3, 'ai', 'F', ['CS 102', 'MATH 221'], 'search, knowledge representation, planning and reasoning under uncertainty'),
  course('CS 365', 'Machine Learning', 3, 'ai', 'E', ['CS 102', 'MATH 221', 'STAT 211'], 'supervised and unsupervised learning, model selection and evaluation'),
  course('CS 370', 'Computer Graphics', 3, 'hci', 'S', ['CS 102', 'MATH 221'], 'rendering pipelines, geometry, shading and animation'),
  course('CS 375', 'Human-Computer Interaction', 3, 'hci', 'F', ['CS 220'], 'user research, prototyping, usability evaluation and accessibility'),
  course('CS 380', 'Computer Security', 3, 'security', 'S', ['CS 240'], 'threat models, memory safety, authentication and secure design'),
  course('CS 385', 'Software Engineering', 3, 'pl', 'E', ['CS 220'], 'requirements, architecture, continuous integration and maintenance'),
  course('CS 401', 'Compilers', 4, 'pl', 'S', ['CS 240', 'CS 320'], 'parsing, intermediate representations, optimization and code generation'),
  course('CS 410', 'Distributed Systems', 3, 'systems', 'F', ['CS 310', 'CS 340'], 'replication, consensus, fault tolerance and consistency'),
  course('CS 415', 'Information Retrieval', 3, 'data', 'S', ['CS 330'], 'indexing, ranking, evaluation and web search'),
  course('CS 420', 'Natural Language Processing', 3, 'ai', 'S', ['CS 365'], 'language models, parsing, translation and evaluation'),
  course('CS 425', 'Computer Vision', 3, 'ai', 'F', ['CS 365'], 'image formation, features, recognition and 3D reconstruction'),
  course('CS 430', 'Advanced Algorithms', 3, 'theory', 'F', ['CS 301'], 'randomized, approximation and online algorithms'),
  course('CS 440', 'Cryptography', 3, 'security', 'F', ['CS 301', 'MATH 251'], 'encryption, signatures, protocols and proofs of security'),
  course('CS 450', 'Robotics', 3, 'ai', 'S', ['CS 360'], 'kinematics, perception, motion planning and control'),
  course('CS 460', 'Parallel Computing', 3, 'systems', 'S', ['CS 310'], 'parallel architectures, GPUs, message passing and performance'),
  course('CS 470', 'Data Visualization', 3, 'hci', 'F', ['CS 102'], 'visual encoding, interaction and perception of charts'),
  course('CS 480', 'Quantum Computing', 3, 'theory', 'S', ['CS 301', 'MATH 221'], 'qubits, circuits, quantum algorithms and error correction'),
  course('CS 490', 'Senior Capstone Project', 4, 'pl', 'E', ['CS 301', 'CS 385'], 'a team project for a real client, from requirements to delivery'),
  course('CS 495', 'Senior Thesis', 4, 'research', 'E', ['CS 301'], 'an individual research project written up as a thesis'),
  course('CS 501', 'Advanced Operating Systems', 3, 'systems', 'F', ['CS 310'], 'classic and current papers on kernels, storage and virtualization'),
  course('CS 510', 'Algorithm Design and Analysis', 3, 'theory', 'F', ['CS 301'], 'advanced algorithm design techniques and lower bounds'),
  course('CS 520', 'Programming Language Theory', 3, 'pl', 'S', ['CS 320'], 'lambda calculus, type soundness and program logics'),
  course('CS 530', 'Database Systems', 3, 'data', 'S', ['CS 330'], 'storage engines, query optimization and distributed databases'),
  course('CS 540', 'Advanced Computer Networks', 3, 'systems', 'S', ['CS 340'], 'datacenter networks, programmable switches and measurement'),
  course('CS 550', 'Computational Complexity', 3, 'theory', 'S', ['CS 350'], 'complexity classes, randomness, interaction and hardness'),
  course('CS 560', 'Advanced Artificial Intelligence', 3, 'ai', 'F', ['CS 360'], 'probabilistic reasoning, reinforcement learning and multi-agent systems'),
  course('CS 565', 'Statistical Machine Learning', 3, 'ai', 'F', ['CS 365'], 'generalization, kernels, graphical models and optimization'),
  course('CS 570', 'Deep Learning', 3, 'ai', 'S', ['CS 565'], 'neural architectures, training at scale and representation learning'),
  course('CS 575', 'Advanced Human-Computer Interaction', 3, 'hci', 'S', ['CS 375'], 'research methods and current topics in interaction design'),
  course('CS 580', 'Network Security', 3, 'security', 'F', ['CS 380'], 'attacks and defenses in networked systems and the web'),
  course('CS 585', 'Software Verification', 3, 'pl', 'F', ['CS 520'], 'model checking, static analysis and proof assistants'),
  course('CS 590', 'Research Methods in Computing', 3, 'research', 'E', [], 'reading and reviewing papers, experiment design and research ethics'),
  course('CS 600', 'Graduate Seminar', 1, 'research', 'E', [], 'weekly research talks by visitors and students', { passFail: true }),
  course('CS 610', 'Topics in Systems', 3, 'systems', 'S', ['CS 501'], 'a current systems research topic, chosen each year'),
  course('CS 620', 'Topics in Theory', 3, 'theory', 'S', ['CS 510'], 'a current theory research topic, chosen each year'),
  course('CS 630', 'Topics in Machine Learning', 3, 'ai', 'S', ['CS 565'], 'a current machine learning research topic, chosen each year'),
  course('CS 640', 'Topics in Human-Computer Interaction', 3, 'hci', 'F', ['CS 575'], 'a current interaction research topic, chosen each year'),
  course('CS 790', 'Doctoral Research', 3, 'research', 'E', ['CS 590'], 'supervised research toward the qualifying exam', { passFail: true, repeatable: true }),
  course('CS 799', 'Dissertation Research', 3, 'research', 'E', ['CS 590'], 'supervised research toward the dissertation', { passFail: true, repeatable: true }),
  course('MATH 131', 'Calculus I', 4, 'math', 'E', [], 'limits, derivatives, integrals and their applications'),
  course('MATH 132', 'Calculus II', 4, 'math', 'E', ['MATH 131'], 'integration techniques, sequences, series and parametric curves'),
  course('MATH 221', 'Linear Algebra', 4, 'math', 'E', ['MATH 131'], 'vector spaces, matrices, eigenvalues and orthogonality'),
  course('MATH 231', 'Multivariable Calculus', 4, 'math', 'E', ['MATH 132'], 'partial derivatives, multiple integrals and vector calculus'),
  course('MATH 241', 'Differential Equations', 3, 'math', 'S', ['MATH 132'], 'ordinary differential equations, systems and stability'),
  course('MATH 251', 'Number Theory', 3, 'math', 'F', ['MATH 131'], 'divisibility, congruences, primes and quadratic residues'),
  course('MATH 301', 'Real Analysis', 3, 'math', 'F', ['MATH 231'], 'the real numbers, continuity, differentiation and integration'),
  course('MATH 311', 'Abstract Algebra', 3, 'math', 'S', ['MATH 221'], 'groups, rings and fields'),
  course('MATH 321', 'Numerical Analysis', 3, 'math', 'F', ['CS 101', 'MATH 221'], 'floating point, root finding, interpolation and numerical linear algebra'),
  course('MATH 331', 'Combinatorics', 3, 'math', 'S', ['MATH 221'], 'enumeration, generating functions and designs'),
  course('MATH 341', 'Graph Theory', 3, 'math', 'F', ['MATH 221'], 'connectivity, matchings, colorings and planarity'),
  course('MATH 351', 'Optimization', 3, 'math', 'S', ['MATH 221', 'MATH 231'], 'linear programming, duality and convex problems'),
  course('MATH 361', 'Probability Theory', 3, 'math', 'F', ['MATH 231'], 'random variables, limit theorems and Markov chains'),
  course('MATH 401', 'Topology', 3, 'math', 'S', ['MATH 301'], 'metric and topological spaces, compactness and connectedness'),
  course('MATH 510', 'Convex Optimization', 3, 'math', 'F', ['MATH 351'], 'convex analysis, duality and first-order methods'),
  course('STAT 211', 'Probability and Statistics for Computing', 4, 'stats', 'E', ['MATH 132'], 'probability, distributions, estimation and hypothesis testing'),
  course('STAT 221', 'Applied Regression', 3, 'stats', 'E', ['STAT 211'], 'linear and logistic regression, diagnostics and model choice'),
  course('STAT 311', 'Mathematical Statistics', 3, 'stats', 'F', ['STAT 211', 'MATH 231'], 'likelihood, sufficiency, estimation theory and tests'),
  course('STAT 321', 'Bayesian Data Analysis', 3, 'stats', 'S', ['STAT 211'], 'priors, posterior computation and hierarchical models'),
  course('STAT 331', 'Time Series Analysis', 3, 'stats', 'F', ['STAT 221'], 'autoregressive models, forecasting and spectral methods'),
  course('STAT 411', 'Statistical Learning Theory', 3, 'stats', 'S', ['STAT 311'], 'risk bounds, regularization and high-dimensional estimation'),
  course('STAT 511', 'Advanced Probability', 3, 'stats', 'F', ['STAT 311'], 'measure-theoretic probability, martingales and concentration'),
  course('STAT 520', 'High-Dimensional Statistics', 3, 'stats', 'S', ['STAT 511'], 'sparsity, random matrices and minimax rates'),
]

/** The courses that fill the most seats; they get second and third sections. */
export const highDemand: readonly string[] = ['CS 101', 'CS 102', 'MATH 131', 'CS 215', 'STAT 211', 'MATH 221', 'CS 201', 'MATH 132', 'CS 220']

export const templateCode = (t: CourseTemplate): string => `${t.subject} ${t.number}`
