/** Educators' forum topics and the comments and replies members leave on posts. */

export const DEAL_FORUM_CATEGORIES = [
  "Hot Deals",
  "Coupons",
  "Freebies",
  "Back to School",
] as const;
export const DISCUSSION_FORUM_CATEGORIES = [
  "Classroom Tech",
  "Teaching Tips",
  "Supplies Talk",
  "Grants & Funding",
] as const;
export type DiscussionCategory = (typeof DISCUSSION_FORUM_CATEGORIES)[number];

export interface DiscussionSeed {
  title: string;
  category: DiscussionCategory;
  body: string;
  points?: readonly string[];
}

function d(
  category: DiscussionCategory,
  title: string,
  body: string,
  points?: readonly string[],
): DiscussionSeed {
  return points ? { category, title, body, points } : { category, title, body };
}

/**
 * The first topic is the forum's welcome post: the navigation bar's fixed Educators link points
 * to it. The first fifteen are the "small" scale's.
 */
export const DISCUSSIONS: readonly DiscussionSeed[] = [
  d(
    "Teaching Tips",
    "Welcome to the Chalkboard Deals Educators Forum – Start Here",
    "This is the place for teachers, librarians, coaches and school staff to swap ideas, ask for recommendations and share what actually works in a classroom. Introduce yourself below: what you teach, where, and the one supply you can never keep in stock.",
    [
      "Be kind and assume good intent.",
      "No referral links or self-promotion in discussions; post deals in the Deals forum.",
      "Do not share students' names or photos.",
    ],
  ),
  d(
    "Classroom Tech",
    "Best budget document camera for a 3rd-grade classroom?",
    "My district finally approved a small tech budget and I have about $150 to spend. I mostly want to show read-alouds, model handwriting and share student work. Has anyone compared the IPEVO models with the cheaper no-name ones on Amazon?",
    [
      "Needs to work with a district Chromebook",
      "Would love a built-in light",
      "Must fit on a crowded teacher desk",
    ],
  ),
  d(
    "Supplies Talk",
    "What's on your kindergarten supply list this year?",
    "I'm rewriting our grade-level supply list and want to cut anything that ends up unused. What do you actually ask families for, and what do you buy yourself?",
  ),
  d(
    "Grants & Funding",
    "DonorsChoose tips: how did you get your first project funded?",
    "I posted my first DonorsChoose project for flexible seating and it has been sitting at 30% for two weeks. What helped your projects cross the finish line?",
    [
      "Did a match offer make the difference?",
      "How long was your project description?",
      "Did you share it with families or on social media?",
    ],
  ),
  d(
    "Teaching Tips",
    "How do you keep morning meeting fresh in February?",
    "By midwinter my class is restless and our morning meeting feels stale. Looking for greeting ideas, share prompts and quick activities that don't need prep.",
  ),
  d(
    "Classroom Tech",
    "Chromebook vs. iPad for a 1st-grade centers rotation",
    "Our school can buy six devices for centers. The younger kids are faster on iPads, but our reading program runs best in Chrome. Which would you pick and why?",
  ),
  d(
    "Supplies Talk",
    "Dry-erase markers that actually last a month?",
    "I go through a pack of EXPO markers every couple of weeks. Are the low-odor ones worth it, and has anyone tried refillable markers in a classroom?",
  ),
  d(
    "Grants & Funding",
    "Local business sponsorships for classroom libraries",
    "Has anyone had luck asking local businesses to sponsor books for a classroom library? I'd love a script or letter template that worked for you.",
  ),
  d(
    "Teaching Tips",
    "First-year teacher: what do you wish you had known in August?",
    "I start my first year in a 4th-grade classroom next month. What would you tell your first-year self about setup, routines and surviving the first six weeks?",
  ),
  d(
    "Classroom Tech",
    "Wireless presenting: Chromecast, Apple TV or an HDMI cable?",
    "I'm tired of being tethered to my desk. Which wireless option has been most reliable on a busy school network?",
  ),
  d(
    "Supplies Talk",
    "Community supplies vs. individual supplies — which do you prefer?",
    "We're debating as a grade level whether to pool all supplies or let students keep their own. What has worked better for behavior and for the budget?",
  ),
  d(
    "Grants & Funding",
    "Title I funds for teacher supplies — what can you actually request?",
    "My principal said there may be some Title I money for classroom materials this spring. What have you successfully requested, and how did you justify it?",
  ),
  d(
    "Teaching Tips",
    "Classroom jobs that actually reduce your workload",
    "I want a classroom job chart that helps me instead of creating more management. What jobs do your students do that truly save you time?",
  ),
  d(
    "Classroom Tech",
    "Headphones for state testing: what survives a year of 2nd graders?",
    "Our testing season starts soon and half our headphones are broken. Looking for durable, cheap headphones with a mic for speaking sections.",
  ),
  d(
    "Supplies Talk",
    "Best laminator for a classroom under $60?",
    "The workroom laminator is always jammed. I'd like my own for centers and name tags. Thermal pouch laminators under $60 — recommendations?",
  ),
  d(
    "Grants & Funding",
    "Grants for flexible seating: success stories?",
    "I want to add wobble stools and floor cushions. Which grants or fundraising routes worked for your flexible seating?",
  ),
  d(
    "Teaching Tips",
    "Managing phones in a high-school classroom",
    "Our school's phone policy is vague. What system do you use — pocket charts, lockers, nothing? How do you enforce it without daily battles?",
  ),
  d(
    "Classroom Tech",
    "Interactive whiteboard alternatives on a budget",
    "We don't have a smart board. Has anyone built a cheap setup with a projector, a tablet and screen mirroring that feels interactive enough?",
  ),
  d(
    "Supplies Talk",
    "Glue sticks: which brand survives the dry winter months?",
    "Half our glue sticks dry out by January. Is it the brand, the storage, or just kids leaving caps off?",
  ),
  d(
    "Grants & Funding",
    "Writing a grant for a makerspace: budget template?",
    "I'm applying to a local education foundation for a small makerspace. Would anyone share how they structured the budget and outcomes section?",
  ),
  d(
    "Teaching Tips",
    "Read-aloud picks for the first week of 3rd grade",
    "I want books that build community and set expectations without feeling preachy. What are your go-to first-week read-alouds?",
  ),
  d(
    "Classroom Tech",
    "Google Classroom vs. Seesaw for K-2 families",
    "Our team is picking one platform for family communication. Which has been easier for parents of young kids?",
  ),
  d(
    "Supplies Talk",
    "Where do you buy books for a classroom library cheaply?",
    "I want to double my classroom library without spending a fortune. Book clubs, thrift stores, library sales — where do you find the best prices?",
  ),
  d(
    "Grants & Funding",
    "Teacher tax deduction: what supplies count?",
    "Reminder that the educator expense deduction exists. What do you track, and which app do you use to keep receipts organized?",
  ),
  d(
    "Teaching Tips",
    "Calm-down corner setup that actually gets used",
    "I set up a calm-down corner last year and it became a hangout spot. How do you teach students to use it well?",
  ),
  d(
    "Classroom Tech",
    "Best laptop for lesson planning and grading under $700",
    "My personal laptop is seven years old. I mostly use Google Workspace, Canva and the occasional video edit. What would you buy right now?",
  ),
  d(
    "Supplies Talk",
    "Pencil sharpeners that survive a whole year",
    "We've killed three electric sharpeners since September. Which sharpener has held up in your room?",
  ),
  d(
    "Grants & Funding",
    "Crowdfunding field trips — is it allowed at your school?",
    "Our bus costs went up and families can't cover the difference. Has anyone crowdfunded a field trip, and what did your district require?",
  ),
  d(
    "Teaching Tips",
    "Parent-teacher conference forms you like",
    "Looking for a simple conference form that keeps me on time and gives families something to take home.",
  ),
  d(
    "Classroom Tech",
    "Coding robots for 2nd grade: Botley, Code & Go or Bee-Bot?",
    "I have one budget line for coding robots. Which one gives the most learning per dollar for 7-year-olds?",
  ),
  d(
    "Supplies Talk",
    "Organizing centers with limited shelf space",
    "My room has one bookcase. How do you store ten centers' worth of materials when space is tight?",
  ),
  d(
    "Grants & Funding",
    "Corporate teacher grants worth applying for",
    "There are so many corporate grants out there. Which ones have you actually received, and how competitive were they?",
  ),
  d(
    "Teaching Tips",
    "Fast feedback on writing without taking everything home",
    "Grading essays eats my weekends. What strategies give students useful feedback without 40 hours of marking?",
  ),
  d(
    "Classroom Tech",
    "Webcams and mics for recording mini-lessons",
    "I want to record short lessons for absent students. Is a $70 webcam enough, or should I invest in a separate mic?",
  ),
  d(
    "Supplies Talk",
    "Classroom treasure box: what do kids actually want?",
    "My treasure box is full of things no one picks. What prizes do your students get excited about?",
  ),
  d(
    "Grants & Funding",
    "PTA mini-grants: how much does your PTA give teachers?",
    "Our PTA is considering teacher mini-grants. How much does yours give, and what do teachers usually buy?",
  ),
  d(
    "Teaching Tips",
    "Indoor recess ideas for a week of rain",
    "Forecast says rain all week. Share your best indoor recess games and activities that don't destroy the room.",
  ),
  d(
    "Classroom Tech",
    "Printers for teachers: ink tank vs. laser at home",
    "I print a lot of worksheets at home. Is an ink-tank printer like the EcoTank worth it over a basic laser printer?",
  ),
  d(
    "Supplies Talk",
    "Best cleaning supplies for shared tables",
    "What do you use to wipe down shared tables between groups that's safe, quick and doesn't smell like a hospital?",
  ),
  d(
    "Grants & Funding",
    "Getting reimbursed for supplies — what's your district's process?",
    "I spent a lot out of pocket this fall. How does reimbursement work where you teach, and is it worth the paperwork?",
  ),
  d(
    "Teaching Tips",
    "Small-group reading rotations for 25 students",
    "I have 25 readers at five levels and one of me. How do you structure rotations so the other groups stay productive?",
  ),
  d(
    "Classroom Tech",
    "Tablet cases that survive kindergarten",
    "We have a cart of iPads and the cases are cracking. What rugged cases have held up with 5-year-olds?",
  ),
  d(
    "Supplies Talk",
    "Back-to-school shopping: when do prices actually bottom out?",
    "Every July I buy too early. In your experience, which week has the best prices on crayons, notebooks and glue?",
  ),
  d(
    "Grants & Funding",
    "Amazon wish lists: do they work for your classroom?",
    "I made a classroom wish list but haven't shared it widely. How do you share yours with families and the community without feeling pushy?",
  ),
  d(
    "Teaching Tips",
    "Building classroom community in middle school",
    "Middle schoolers won't do the same community circles my elementary friends use. What works for 12-year-olds?",
  ),
  d(
    "Classroom Tech",
    "Portable speakers for music and read-aloud audio",
    "I want a speaker that fills a classroom, pairs quickly and doesn't drop the connection. Any favorites?",
  ),
  d(
    "Supplies Talk",
    "Composition notebooks vs. spiral: which holds up better?",
    "Our team always argues about this. Which survives a year of interactive notebooks better?",
  ),
  d(
    "Grants & Funding",
    "Applying for a science kit grant: what outcomes do funders want?",
    "I'm writing my first grant for science kits. How specific should the learning outcomes be?",
  ),
  d(
    "Teaching Tips",
    "Substitute binder: what's in yours?",
    "I'm finally putting together a proper sub binder. What do you include so the day runs smoothly when you're out?",
  ),
  d(
    "Classroom Tech",
    "Graphing calculators: TI-84 Plus CE still worth it?",
    "Our math department is replacing calculators. Is the TI-84 Plus CE still the standard, or are students fine with Desmos?",
  ),
  d(
    "Supplies Talk",
    "Art supplies on a tiny budget",
    "I teach art on a $300 yearly budget for 400 students. Where do you stretch your dollars?",
  ),
  d(
    "Grants & Funding",
    "Fundraisers that don't involve selling candy",
    "Looking for fundraisers that raise real money for classroom supplies without sending kids door to door with candy.",
  ),
  d(
    "Teaching Tips",
    "Bulletin boards that teach, not just decorate",
    "I want boards students actually use. Share your interactive bulletin-board ideas.",
  ),
  d(
    "Classroom Tech",
    "Charging 30 Chromebooks without a cart",
    "Our charging cart broke and replacement is months away. What's a safe, cheap way to charge a class set overnight?",
  ),
  d(
    "Supplies Talk",
    "Teacher shoes for standing all day",
    "My feet are done by 2 p.m. What shoes have saved your feet on long teaching days?",
  ),
  d(
    "Grants & Funding",
    "Using Teachers Pay Teachers with school funds",
    "Can you use school money for Teachers Pay Teachers resources at your school? How do you handle the purchase?",
  ),
  d(
    "Teaching Tips",
    "End-of-year gifts for students on a budget",
    "I'd like to give each student something small at the end of the year. What have you done that students loved?",
  ),
  d(
    "Classroom Tech",
    "Label makers: worth it for classroom organization?",
    "Thinking about a Brother P-touch for labeling bins. Worth it, or should I stick with printable labels?",
  ),
  d(
    "Supplies Talk",
    "Stocking a classroom pet habitat",
    "Our class is adopting a guinea pig. What supplies should I buy, and where are the best deals?",
  ),
  d(
    "Grants & Funding",
    "Grants for classroom books in students' home languages",
    "I teach many newcomers and want books in Spanish, Arabic and Vietnamese. Which grants or programs help with multilingual libraries?",
  ),
];

export const DISCUSSION_CLOSINGS: readonly string[] = [
  "Thanks in advance — I'll share what I end up doing.",
  "Any advice is appreciated, especially from teachers in the same grade.",
  "What has worked for you? Links to deals are welcome in the comments.",
  "I'd love to hear both successes and things you wouldn't try again.",
  "Happy to summarize the answers here for anyone else searching later.",
];

export const DEAL_COMMENTS: readonly string[] = [
  "Just ordered two — thanks for posting!",
  "Price went up for me already, but it's still cheaper than the store.",
  "Stacked this with my teacher discount and saved even more.",
  "I bought these last year and they lasted all year. Great find.",
  "Is this in-store too, or online only?",
  "Worked for me with free pickup today.",
  "Great price. Adding to my classroom wish list.",
  "Confirmed the code still works this morning.",
  "These are a staple in my room. Stocking up for next semester.",
  "Shipping was fast — arrived in two days.",
  "Anyone know if this goes lower around Black Friday?",
  "My students love these. Thank you!",
  "Cart price showed a few cents more for me, still a good deal.",
  "Sold out at my local store, but online worked.",
  "Perfect timing — I was just about to buy these at full price.",
  "Used a gift card from Teacher Appreciation Week on this. Win!",
  "Can confirm the discount applies at checkout, not on the product page.",
  "Great for the supply closet. Grabbed a few extra for students who need them.",
  "Not the lowest I've seen, but close.",
  "The reviews are solid. Pulling the trigger.",
  "Thanks! Shared this with my grade-level team.",
  "Limit two per order, just so everyone knows.",
  "Mine came with a slightly different packaging but same item.",
  "Price matched this at my local store without any trouble.",
];

export const DISCUSSION_COMMENTS: readonly string[] = [
  "Great question — I had the same problem last year.",
  "We solved this with a simple checklist taped to the table. Huge difference.",
  "I'd start small and add one thing at a time so it sticks.",
  "Our team tried this and it worked much better than I expected.",
  "Following this thread, I'm in the same situation.",
  "My principal approved it when I tied it to our school improvement goals.",
  "Honestly, routines matter more than the gear. Teach it like a lesson.",
  "I bought the cheaper option first and regretted it. Spend a bit more.",
  "Families were happy to help once I explained exactly what we needed.",
  "Check with your district's tech office first — some devices aren't allowed on the network.",
  "We use this every day. Happy to share photos of our setup.",
  "I wrote about this in my grant application and it got funded!",
  "Love this idea. Trying it Monday.",
  "It took about three weeks before students used it independently.",
  "Our librarian helped us find books for this, worth asking yours.",
  "Second this recommendation — it's been great for my class.",
];

export const REPLIES: readonly string[] = [
  "Thanks, that's really helpful!",
  "Same here — good to know it's not just me.",
  "Did you need a teacher ID for that?",
  "Great tip, thank you for sharing.",
  "Ordered! Thanks for the heads-up.",
  "Agreed, that's been my experience too.",
  "Good point, I hadn't thought of that.",
  "Which store did you use?",
  "That worked for me as well.",
  "Appreciate it — I'll report back.",
];
