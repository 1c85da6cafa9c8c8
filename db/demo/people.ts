/**
 * Demo members and Teachers Wishlist entries. Every address is at example.com or example.org
 * (reserved for documentation), so no mail can reach a real person.
 */

export const DEMO_EMAIL = "demo@example.com";
/** The console's demo staff (roles of migration 013); they sign in with DEMO_PASSWORD too. */
export const DEMO_STAFF = [
  { name: "Chalkboard Admin", email: "admin@example.com", role: "admin" },
  { name: "Chalkboard Moderator", email: "moderator@example.com", role: "moderator" },
] as const;

/**
 * A member who joined two days ago and whose first post waits for review (record 0031): the held
 * post of the console's queue. Signs in with DEMO_PASSWORD; no picture (the site shows initials).
 */
export const DEMO_NEWCOMER = {
  name: "Nora Newcomer",
  email: "newcomer@example.com",
  joinedDaysAgo: 2,
} as const;

/** The one documented password of every demo account. */
export const DEMO_PASSWORD = "Chalkboard#2026";

export interface UserSeed {
  name: string;
  userType: "Teacher" | "Shopper";
  gender: "male" | "female" | null;
  address: string;
  biography: string;
  website?: string;
}

function teacher(
  name: string,
  gender: "male" | "female" | null,
  address: string,
  biography: string,
  website?: string,
): UserSeed {
  return { name, userType: "Teacher", gender, address, biography, ...(website ? { website } : {}) };
}

function shopper(
  name: string,
  gender: "male" | "female" | null,
  address: string,
  biography: string,
): UserSeed {
  return { name, userType: "Shopper", gender, address, biography };
}

/** The first is the demo account (user 1); the first eight are the "small" scale's users. */
export const USERS: readonly UserSeed[] = [
  teacher(
    "Demo Teacher",
    null,
    "Columbus, OH",
    "Fourth-grade teacher and the demo account of Chalkboard Deals. I post the classroom deals I actually buy and love a good coupon stack.",
  ),
  teacher(
    "Maria Gonzalez",
    "female",
    "San Antonio, TX",
    "Bilingual 2nd-grade teacher. Always hunting for books in English and Spanish for our classroom library.",
  ),
  shopper(
    "Jason Miller",
    "male",
    "Denver, CO",
    "Dad of three and a spreadsheet-level deal tracker. Back-to-school season is my Super Bowl.",
  ),
  teacher(
    "Aisha Thompson",
    "female",
    "Atlanta, GA",
    "Middle-school science teacher. If it fizzes, glows or grows, I want it for my lab.",
  ),
  teacher(
    "Kevin Nguyen",
    "male",
    "San Jose, CA",
    "High-school math and robotics coach. I review calculators, Chromebooks and anything with a microcontroller.",
  ),
  shopper(
    "Rachel Cohen",
    "female",
    "Brooklyn, NY",
    "PTA treasurer and bargain hunter. I buy supplies for our school's donation closet.",
  ),
  teacher(
    "Emily Parker",
    "female",
    "Tulsa, OK",
    "Kindergarten teacher in my eighth year. Glue sticks are a currency in my room.",
  ),
  teacher(
    "Marcus Johnson",
    "male",
    "Charlotte, NC",
    "PE teacher and track coach. I test recess gear so you don't have to.",
  ),
  teacher(
    "Sarah Kim",
    "female",
    "Seattle, WA",
    "Art teacher, K-5. Tempera paint and construction paper disappear faster than I can order them.",
  ),
  shopper(
    "David Brooks",
    "male",
    "Phoenix, AZ",
    "Homeschooling dad of two. Big fan of STEM kits and library sales.",
  ),
  teacher(
    "Jennifer Walsh",
    "female",
    "Boston, MA",
    "High-school English teacher. Classroom library curator and annotator of everything.",
  ),
  teacher(
    "Luis Ramirez",
    "male",
    "Albuquerque, NM",
    "5th-grade teacher and tech coach for my building. Chromebook whisperer.",
  ),
  shopper(
    "Hannah Schmidt",
    "female",
    "Milwaukee, WI",
    "Mom, coupon clipper and proud aunt of two first-year teachers.",
  ),
  teacher(
    "Brianna Davis",
    "female",
    "Memphis, TN",
    "Special-education teacher. Sensory tools, visual schedules and flexible seating are my thing.",
  ),
  teacher(
    "Tyler Anderson",
    "male",
    "Omaha, NE",
    "Middle-school social studies. I use maps, primary sources and a lot of sticky notes.",
  ),
  shopper(
    "Priya Patel",
    "female",
    "Edison, NJ",
    "Software engineer and parent. I post tech deals when I spot a real price drop.",
  ),
  teacher(
    "Megan O'Brien",
    "female",
    "Pittsburgh, PA",
    "3rd-grade teacher. Reading workshop devotee and planner collector.",
  ),
  teacher(
    "Andre Williams",
    "male",
    "Baltimore, MD",
    "Music teacher, grades 3-8. Recorders, ukuleles and a lot of patience.",
  ),
  shopper(
    "Olivia Martinez",
    "female",
    "Miami, FL",
    "College student saving for my teaching credential. I love a freebie.",
  ),
  teacher(
    "Daniel Lee",
    "male",
    "Chicago, IL",
    "AP Chemistry and physics. Lab safety first, then deals.",
  ),
  teacher(
    "Grace Wilson",
    "female",
    "Nashville, TN",
    "1st-grade teacher and Cricut enthusiast. My bulletin boards have themes.",
  ),
  shopper(
    "Robert Chen",
    "male",
    "Sacramento, CA",
    "Retired engineer volunteering in my grandkids' school makerspace.",
  ),
  teacher(
    "Natalie Foster",
    "female",
    "Raleigh, NC",
    "School librarian. Ask me about book fairs and read-aloud picks.",
  ),
  teacher(
    "Jamal Carter",
    "male",
    "Detroit, MI",
    "7th-grade math teacher. Manipulatives, whiteboards and game-based review.",
  ),
  shopper(
    "Lauren Hughes",
    "female",
    "Kansas City, MO",
    "Mom of twins. I buy supply lists in bulk and split them with neighbors.",
  ),
  teacher(
    "Christopher Baker",
    "male",
    "Minneapolis, MN",
    "High-school biology teacher and greenhouse club advisor.",
  ),
  teacher(
    "Samantha Reed",
    "female",
    "Salt Lake City, UT",
    "Preschool director. Sensory bins, washable everything.",
  ),
  shopper(
    "Michael Turner",
    "male",
    "Dallas, TX",
    "Deal hunter focused on laptops, monitors and headphones.",
  ),
  teacher(
    "Ashley Morgan",
    "female",
    "Louisville, KY",
    "2nd-grade teacher and first-year mentor. Sharing what I wish I'd known.",
  ),
  teacher(
    "Ethan Scott",
    "male",
    "Portland, OR",
    "Computer-science teacher. Raspberry Pis and robots everywhere.",
  ),
  shopper(
    "Jessica Bennett",
    "female",
    "Orlando, FL",
    "Stay-at-home mom who runs our school's teacher-appreciation committee.",
  ),
  teacher(
    "Vanessa Howard",
    "female",
    "New Orleans, LA",
    "ESL teacher, K-8. Picture books and visuals are my best tools.",
  ),
  teacher(
    "Brandon Price",
    "male",
    "Indianapolis, IN",
    "Band director. Always searching for instrument and stand deals.",
  ),
  shopper(
    "Karen Mitchell",
    "female",
    "Richmond, VA",
    "Grandmother of five and a Teachers Wishlist regular.",
  ),
  teacher(
    "Isabel Flores",
    "female",
    "El Paso, TX",
    "Dual-language kindergarten teacher. Songs, centers and lots of laminating.",
  ),
  teacher(
    "Nathan Hayes",
    "male",
    "Boise, ID",
    "Rural K-8 science teacher. Stretching a small budget is a skill.",
  ),
  shopper(
    "Stephanie Ward",
    "female",
    "Columbus, GA",
    "Military spouse and bargain shopper. Free shipping or bust.",
  ),
  teacher(
    "Courtney Bell",
    "female",
    "Birmingham, AL",
    "4th-grade teacher and grant writer for my school.",
  ),
  teacher("Joshua Rivera", "male", "Newark, NJ", "High-school history teacher and debate coach."),
  shopper(
    "Amanda Cooper",
    "female",
    "Des Moines, IA",
    "Substitute teacher and deal spotter. I post coupons the day I find them.",
  ),
];

export interface WishlistSeed {
  firstName: string;
  lastName: string;
  schoolLocation: string;
}

export const WISHLIST: readonly WishlistSeed[] = [
  { firstName: "Emily", lastName: "Parker", schoolLocation: "Lincoln Elementary, Tulsa, OK" },
  {
    firstName: "Marcus",
    lastName: "Johnson",
    schoolLocation: "Roosevelt Middle School, Charlotte, NC",
  },
  {
    firstName: "Maria",
    lastName: "Gonzalez",
    schoolLocation: "César Chávez Elementary, San Antonio, TX",
  },
  { firstName: "Natalie", lastName: "Foster", schoolLocation: "Oak Grove Elementary, Raleigh, NC" },
  {
    firstName: "Jamal",
    lastName: "Carter",
    schoolLocation: "Martin Luther King Jr. Academy, Detroit, MI",
  },
  { firstName: "Brianna", lastName: "Davis", schoolLocation: "Riverside Elementary, Memphis, TN" },
  { firstName: "Nathan", lastName: "Hayes", schoolLocation: "Pine Valley K-8 School, Boise, ID" },
  {
    firstName: "Vanessa",
    lastName: "Howard",
    schoolLocation: "Harriet Tubman Charter School, New Orleans, LA",
  },
  {
    firstName: "Courtney",
    lastName: "Bell",
    schoolLocation: "Washington Elementary, Birmingham, AL",
  },
  {
    firstName: "Isabel",
    lastName: "Flores",
    schoolLocation: "Mission Valley Elementary, El Paso, TX",
  },
  {
    firstName: "Grace",
    lastName: "Wilson",
    schoolLocation: "Maple Street Elementary, Nashville, TN",
  },
  {
    firstName: "Christopher",
    lastName: "Baker",
    schoolLocation: "North High School, Minneapolis, MN",
  },
];
