package sim

// Word lists for seed data. They are read-only after package init.

var firstNames = []string{
	"Amara", "Jonah", "Priya", "Ciaran", "Ngozi", "Felix", "Ingrid", "Mateo", "Sofia", "Kwame",
	"Hannah", "Rafael", "Yuki", "Eleanor", "Tariq", "Beatriz", "Oskar", "Chloe", "Dmitri", "Aisling",
	"Samuel", "Leila", "Gideon", "Mei", "Thomas", "Zainab", "Lukas", "Imogen", "Kofi", "Astrid",
	"Nikhil", "Rosalind", "Emeka", "Clara", "Julian", "Freya", "Hamza", "Margot", "Benedict", "Saoirse",
	"Joseph", "Valentina", "Elliot", "Ama", "Viktor",
}

var lastNames = []string{
	"Okafor", "Halvorsen", "Castellano", "Whitfield", "Nakamura", "Brennan", "Adeyemi", "Lindqvist",
	"Fairbairn", "Mensah", "Kowalski", "Achterberg", "Delacroix", "Iyer", "MacAllister", "Osei",
	"Pemberton", "Rahman", "Sandoval", "Thorsen", "Underwood", "Varga", "Wexford", "Yilmaz",
	"Zielinski", "Abernathy", "Blackwood", "Chaudhry", "Donnelly", "Eriksen", "Ferreira", "Gallagher",
	"Hargreaves", "Ibsen", "Jovanovic", "Kavanagh", "Lombardi", "Moreau", "Nwosu", "Oyelaran",
}

var companies = []string{
	"Acme Corp", "Northwind Traders", "Bellhaven Shipping", "Corvid Analytics", "Dunmore Estates",
	"Eastgate Pharma", "Fenwick Aerospace", "Glenrock Energy", "Harbourline Ferries", "Ironbridge Capital",
	"Juniper Health", "Kestrel Logistics", "Larkspur Foods", "Meridian Telecom", "Northbrook Insurance",
	"Oakhurst Developments", "Pellucid Optics", "Quayside Retail", "Redfern Mining", "Saltmarsh Brewing",
	"Tidewater Holdings", "Umbra Security", "Vantage Biotech", "Westmoor Hotels", "Yarrow Textiles",
	"Zephyr Wind Power", "Ashcombe Motors", "Brightwater Utilities", "Calloway Media", "Driftwood Software",
	"Evergreen Pensions", "Foxglove Cosmetics", "Granite Bank", "Highfield Academies Trust", "Islington Lettings",
	"Jasper Semiconductors", "Kingsmere Chemicals", "Lowther Freight", "Marlow Pictures", "Newhaven Ports",
	"Orchard Lane Dairies", "Pennant Airlines", "Quill & Ledger Publishing", "Rowan Medical Devices",
	"Silverline Rail", "Thistle Distillers", "Upland Agritech", "Vireo Payments", "Whitcombe Construction",
	"Yeoman Outdoor", "Halvorsen Marine", "Aldgate Fintech", "Blythe Robotics", "Carrick Steel",
	"Dovecote Care Homes", "Elmstead Water", "Fairport Cinemas", "Gresham Textiles", "Hollins Timber", "Ivel Foods",
}

var opponents = []string{
	"Halvorsen", "Brightline Ltd", "the Secretary of State", "Mercator Group", "Osei Holdings",
	"Tandem Freight", "Varga Industries", "Delacroix SA", "Pemberton Trust", "Kowalski & Sons",
	"Redwater Council", "Sandoval Partners", "Thorsen Shipping AS", "Yilmaz Construction", "Northcote plc",
}

var matterKinds = []string{
	"Patent Litigation", "Share Purchase", "Employment Tribunal", "Lease Renewal", "Regulatory Investigation",
	"Data Protection Audit", "Supply Agreement Dispute", "Asset Finance", "Merger Clearance", "Trademark Opposition",
	"Construction Arbitration", "Pension Scheme Review", "Insolvency Advice", "Joint Venture", "Competition Inquiry",
	"Product Liability Claim", "Refinancing", "IPO Readiness", "Sanctions Screening", "Commercial Lease Dispute",
}

var docTitles = []string{
	"Share Purchase Agreement", "Disclosure Letter", "Board Minutes", "Witness Statement of J. Okafor",
	"Expert Report on Damages", "Letter of Claim", "Defence and Counterclaim", "Heads of Terms",
	"Due Diligence Report", "Non-Disclosure Agreement", "Master Services Agreement", "Lease",
	"Licence to Assign", "Shareholders' Agreement", "Facility Agreement", "Security Trust Deed",
	"Employment Contract", "Settlement Agreement", "Skeleton Argument", "Chronology of Events",
	"Privilege Log", "Data Room Index", "Completion Checklist", "Power of Attorney",
	"Closing Memorandum", "Regulatory Filing", "Engagement Letter", "Board Resolution",
	"Statement of Case", "Costs Budget", "Transfer Pricing Memo", "Subscription Agreement",
}

var docQualifiers = []string{
	"(execution)", "(draft)", "v2", "v3", "(clean)", "(redline)", "(signed)", "(final)", "- annotated",
	"(counterpart)", "2024-03-14", "2025-01-09", "(client comments)", "(agreed form)",
}

var docExts = []string{".docx", ".pdf", ".pdf", ".pdf", ".docx", ".xlsx", ".eml", ".msg", ".pptx", ".txt", ".csv", ".rtf"}

var userAgents = []string{
	"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
	"Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
	"Microsoft Office/16.0 (Windows NT 10.0; Microsoft Word 16.0.17531; Pro)",
	"Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17531; Pro)",
	"python-requests/2.32.3",
}
