/**
 * The demo stores: real US retailers that shoppers and teachers buy from. Links are built as
 * https://www.<domain>/ and never fetched. The first twelve are the "small" scale's stores and the
 * first eight the featured stores, so the most familiar names come first.
 */

/** How a store's product pages are addressed, to make believable deal links. */
export type LinkStyle =
  | "amazon"
  | "target"
  | "walmart"
  | "bestbuy"
  | "product"
  | "products"
  | "p"
  | "item";

export interface StoreSeed {
  title: string;
  domain: string;
  /** Background of the generated store image. */
  color: string;
  description: string;
  linkStyle: LinkStyle;
}

function store(
  title: string,
  domain: string,
  color: string,
  linkStyle: LinkStyle,
  description: string,
): StoreSeed {
  return { title, domain, color, linkStyle, description };
}

export const STORES: readonly StoreSeed[] = [
  store("Amazon", "amazon.com", "#232F3E", "amazon", "Everything from classroom basics to laptops, with fast Prime shipping and frequent Lightning Deals."),
  store("Target", "target.com", "#CC0000", "target", "Back-to-school staples, Bullseye's Playground finds and Target Circle offers, with free drive up."),
  store("Walmart", "walmart.com", "#0071CE", "walmart", "Everyday low prices on school supplies, tech and home, with free pickup and Walmart+ delivery."),
  store("Staples", "staples.com", "#CC0000", "product", "Office and school supplies, ink and toner, with Staples Rewards for teachers."),
  store("Office Depot", "officedepot.com", "#D9261C", "product", "Paper, binders, furniture and tech for classrooms and home offices."),
  store("Michaels", "michaels.com", "#D7282F", "product", "Art, craft and bulletin-board supplies; teachers save 15% every day with a Teacher Rewards account."),
  store("Scholastic", "scholastic.com", "#E31837", "product", "Children's books, classroom libraries and Scholastic Book Clubs bonus points."),
  store("Lakeshore Learning", "lakeshorelearning.com", "#0065A4", "product", "Classroom furniture, early-learning materials and teaching supplies."),
  store("Best Buy", "bestbuy.com", "#0046BE", "bestbuy", "Laptops, tablets, headphones and classroom tech, with student deals and price matching."),
  store("Apple", "apple.com", "#555555", "product", "iPad, Mac and accessories, with education pricing for teachers and students."),
  store("Kohl's", "kohls.com", "#5C2D91", "p", "Teacher apparel, shoes, backpacks and home goods, with Kohl's Cash and stackable coupons."),
  store("Costco", "costco.com", "#005DAA", "product", "Bulk classroom supplies, snacks, tech and teacher essentials for members."),
  store("Sam's Club", "samsclub.com", "#0067A0", "p", "Bulk paper, snacks and cleaning supplies at warehouse prices."),
  store("Barnes & Noble", "barnesandnoble.com", "#2A5934", "p", "Books for every reading level, plus an educator discount program."),
  store("Dollar Tree", "dollartree.com", "#00843D", "products", "Low-cost classroom decor, prizes and supplies, many sold by the case."),
  store("Five Below", "fivebelow.com", "#8C2A8C", "products", "Trendy supplies, headphones and classroom prizes for five dollars or less."),
  store("Hobby Lobby", "hobbylobby.com", "#E35205", "p", "Craft supplies, frames and classroom decor with weekly 40%-off coupons."),
  store("Blick Art Materials", "dickblick.com", "#E2231A", "products", "Art supplies for classrooms and studios, with school and bulk pricing."),
  store("Oriental Trading", "orientaltrading.com", "#E0003D", "p", "Classroom prizes, party supplies and crafts in bulk."),
  store("Really Good Stuff", "reallygoodstuff.com", "#00A3AD", "products", "Classroom management, organization and decor made for teachers."),
  store("Carson Dellosa", "carsondellosa.com", "#0093D0", "products", "Bulletin-board sets, workbooks and classroom decor collections."),
  store("Teachers Pay Teachers", "teacherspayteachers.com", "#18A499", "product", "Lesson plans and printables made by teachers, for teachers."),
  store("Learning Resources", "learningresources.com", "#00704A", "products", "Hands-on STEM, math manipulatives and early-learning toys."),
  store("hand2mind", "hand2mind.com", "#F26522", "products", "Math manipulatives, phonics kits and hands-on learning tools."),
  store("Dell", "dell.com", "#007DB8", "product", "Laptops, Chromebooks and monitors, with education discounts."),
  store("HP", "hp.com", "#0096D6", "product", "Laptops, Chromebooks, printers and ink subscriptions."),
  store("Lenovo", "lenovo.com", "#E2231A", "p", "ThinkPad, IdeaPad and Chromebook laptops, with an education store."),
  store("Samsung", "samsung.com", "#1428A0", "products", "Galaxy tablets, Chromebooks and monitors, with education offers."),
  store("Microsoft", "microsoft.com", "#5E5E5E", "p", "Surface devices, Microsoft 365 and Xbox, with student and teacher offers."),
  store("Newegg", "newegg.com", "#F7941D", "p", "Computer parts, laptops and tech accessories with daily deals."),
  store("B&H Photo", "bhphotovideo.com", "#1C1C1C", "product", "Cameras, projectors, audio and computer gear, with an education program."),
  store("Old Navy", "oldnavy.com", "#003764", "products", "Affordable clothing for the whole family and school uniforms."),
  store("Gap", "gap.com", "#002C5F", "products", "Everyday basics, denim and kids' clothing."),
  store("Lands' End", "landsend.com", "#1F3A60", "products", "School uniforms, outerwear and classic teacher-friendly clothing."),
  store("L.L.Bean", "llbean.com", "#2F5233", "p", "Backpacks, outerwear and boots built to last."),
  store("Macy's", "macys.com", "#E21A2C", "product", "Apparel, shoes and home, with frequent storewide sales."),
  store("JCPenney", "jcpenney.com", "#D2232A", "p", "Apparel, shoes and home goods with coupons and rewards."),
  store("Nordstrom Rack", "nordstromrack.com", "#1A1A1A", "products", "Brand-name shoes and clothing at off-price."),
  store("Zappos", "zappos.com", "#1F6FB2", "p", "Comfortable shoes for teachers on their feet all day, with free returns."),
  store("Nike", "nike.com", "#111111", "products", "Athletic shoes and apparel for PE, recess and weekends."),
  store("Skechers", "skechers.com", "#0B2341", "product", "Comfort walking shoes and slip-ons for long school days."),
  store("Crocs", "crocs.com", "#3C8D2F", "product", "Clogs and sandals, often on sale with extra-off codes."),
  store("JanSport", "jansport.com", "#1E3A6E", "product", "Classic backpacks with a lifetime warranty."),
  store("Vera Bradley", "verabradley.com", "#C8416F", "products", "Patterned backpacks, lunch bags and teacher totes."),
  store("The North Face", "thenorthface.com", "#1C1C1C", "products", "Backpacks and outerwear for school and outdoor days."),
  store("IKEA", "ikea.com", "#0051BA", "p", "Affordable storage, shelving and furniture for classrooms and home."),
  store("Wayfair", "wayfair.com", "#7B189F", "p", "Classroom furniture, flexible seating and storage."),
  store("The Home Depot", "homedepot.com", "#F96302", "p", "Storage bins, cleaning supplies and classroom DIY projects."),
  store("Lowe's", "lowes.com", "#004990", "p", "Shelving, storage and supplies for classroom makeovers."),
  store("The Container Store", "containerstore.com", "#3A8DDE", "p", "Bins, drawers and labels for organized classrooms."),
  store("Etsy", "etsy.com", "#F1641E", "item", "Handmade classroom decor, teacher gifts and personalized stamps."),
  store("Walgreens", "walgreens.com", "#E31837", "p", "Cleaning supplies, first-aid kits and photo prints."),
  store("CVS", "cvs.com", "#CC0000", "p", "Sanitizer, tissues and first-aid supplies with ExtraCare rewards."),
  store("Dick's Sporting Goods", "dickssportinggoods.com", "#006341", "p", "PE equipment, sneakers and recess gear."),
  store("LEGO", "lego.com", "#E3000B", "product", "LEGO Education sets and building kits for STEM classrooms."),
  store("Crayola", "crayola.com", "#F7941D", "product", "Crayons, markers and classroom packs straight from the maker."),
  store("Melissa & Doug", "melissaanddoug.com", "#D52B1E", "products", "Wooden puzzles, pretend play and early-learning toys."),
  store("KiwiCo", "kiwico.com", "#1F9E55", "product", "Monthly STEM and art project crates for every age."),
  store("Books-A-Million", "booksamillion.com", "#0A4595", "p", "Books, games and gifts with a Millionaire's Club discount."),
  store("ThriftBooks", "thriftbooks.com", "#5C8A3A", "p", "Used books at low prices — great for building a classroom library."),
  store("Quill", "quill.com", "#00639C", "product", "Office and school supplies with free shipping on qualifying orders."),
  store("School Specialty", "schoolspecialty.com", "#003A70", "product", "Classroom supplies, furniture and curriculum for schools."),
  store("Discount School Supply", "discountschoolsupply.com", "#E4002B", "product", "Early-childhood art, sensory and classroom supplies."),
  store("Carolina Biological", "carolina.com", "#005A9C", "product", "Science lab supplies, specimens and STEM kits for schools."),
  store("Logitech", "logitech.com", "#00B8FC", "products", "Webcams, headsets and keyboards for classrooms."),
  store("Anker", "anker.com", "#00A7E1", "products", "Chargers, power banks and cables for classroom devices."),
  store("Epson", "epson.com", "#003399", "product", "Projectors, document cameras and EcoTank printers."),
  store("Brother", "brother-usa.com", "#0D2C6C", "products", "Laser printers and label makers for classrooms."),
  store("Cricut", "cricut.com", "#2C8C7C", "product", "Cutting machines and materials for classroom decor and crafts."),
  store("Vistaprint", "vistaprint.com", "#0074D9", "products", "Custom banners, stickers and classroom signs."),
  store("Shutterfly", "shutterfly.com", "#F26B21", "product", "Photo books, prints and custom classroom gifts."),
  store("Chewy", "chewy.com", "#1C49C2", "product", "Supplies for classroom pets, with autoship savings."),
];
